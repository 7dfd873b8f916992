//===- HloBackendConfigUtils.h - reading any backend_config -----*- C++ -*-===//
//
// An instruction's backend_config as its typed `#hlo.backend_config`,
// whichever form the module holds it in: the importer types only JSON that
// prints back byte for byte from the typed form (so that export is
// lossless), and keeps any other text (XLA's JSON with spaces or line
// breaks, as some dumps write it) as a string. Passes and runtimes that
// read a config's members go through readBackendConfig so that both forms
// mean the same.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOBACKENDCONFIGUTILS_H
#define HLO_DIALECT_HLO_HLOBACKENDCONFIGUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

namespace mlir::hlo {

/// `config` itself when it is a `#hlo.backend_config`; the typed form of a
/// string or `#hlo.text` holding a JSON object of XLA's backend configs,
/// read whatever its spacing; null otherwise.
BackendConfigAttr readBackendConfig(Attribute config);

/// The backend_config of `op` (its `backend_config` attribute), as above.
inline BackendConfigAttr readBackendConfig(Operation *op) {
  return readBackendConfig(op->getAttr("backend_config"));
}

/// True for a fusion that is one of XLA CPU's custom fusions (XNNPACK,
/// YNNPACK, ...): its backend config has XLA CPU's `fusion_config` (written
/// with unquoted keys, which the dialect keeps as text).
bool isXlaCpuCustomFusion(Operation *op);

/// The character option `key = N : ui8` of an XLA CPU FFI call's
/// attributes (`{side = 76 : ui8, ...}`, kept as an `#hlo.text` of an MLIR
/// dictionary), or `dflt` where `config` does not set it.
char readFfiCharOption(Attribute config, StringRef key, char dflt);

/// The integer option `key = N : i32` (or another integer type) of an XLA
/// FFI call's attributes (`{low = 1 : i32, ...}`), or std::nullopt where
/// `config` does not set it.
std::optional<int64_t> readFfiIntOption(Attribute config, StringRef key);

/// The floating-point option `key = 0.5 : f64` (or another float or integer
/// type) of an XLA FFI call's attributes, or std::nullopt where `config`
/// does not set it.
std::optional<double> readFfiFloatOption(Attribute config, StringRef key);

/// The boolean option `key = true|false` of an XLA GPU FFI call's attributes
/// (`{lower = true, ...}`), or std::nullopt where `config` does not set it.
std::optional<bool> readFfiBoolOption(Attribute config, StringRef key);

/// Member `key` of a backend_config member kept as JSON text (a `#hlo.text`
/// object the dialect has no typed form for) as an integer, quoted (XLA's
/// int64) or not; std::nullopt where it has none.
std::optional<int64_t> readJsonIntMember(Attribute member, StringRef key);

/// The `block_size` of a block-scaled custom call's
/// `block_scaled_dot_backend_config` (XLA's BlockScaledDotBackendConfig),
/// or std::nullopt where it has none.
std::optional<int64_t> readBlockScaledDotBlockSize(Operation *op);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOBACKENDCONFIGUTILS_H
