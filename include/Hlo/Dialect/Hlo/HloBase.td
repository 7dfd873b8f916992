//===- HloBase.td - hlo dialect definition ------------------*- tablegen -*-===//
//
// The `hlo` dialect models XLA's High Level Operations one op per opcode.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOBASE_TD
#define HLO_DIALECT_HLO_HLOBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Hlo_Dialect : Dialect {
  let name = "hlo";
  let cppNamespace = "::mlir::hlo";
  let summary = "XLA High Level Operations (HLO), one op per HLO opcode";
  let description = [{
    The `hlo` dialect holds XLA's HLO instruction set. Every HLO opcode has an
    op named after it (`dynamic-slice` becomes `hlo.dynamic_slice`). Shapes are
    builtin tensors whose encoding carries the HLO layout, tuples are builtin
    `tuple<...>` types and tokens are `!hlo.token`. An HLO computation is an
    `hlo.computation` symbol; instructions that call computations refer to them
    by symbol so that sharing is kept as in HLO.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
    void registerInterfaces();
  }];
}

#endif // HLO_DIALECT_HLO_HLOBASE_TD
