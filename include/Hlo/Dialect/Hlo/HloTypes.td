//===- HloTypes.td - hlo dialect types ----------------------*- tablegen -*-===//

#ifndef HLO_DIALECT_HLO_HLOTYPES_TD
#define HLO_DIALECT_HLO_HLOTYPES_TD

include "Hlo/Dialect/Hlo/HloBase.td"

class Hlo_Type<string name, string typeMnemonic> : TypeDef<Hlo_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Hlo_TokenType : Hlo_Type<"Token", "token"> {
  let summary = "HLO token[] used to order side-effecting instructions";
}

def Hlo_OpaqueType : Hlo_Type<"Opaque", "opaque"> {
  let summary = "HLO opaque[] value (an uninterpreted handle)";
}

#endif // HLO_DIALECT_HLO_HLOTYPES_TD
