//===- CubinAssembler.cpp - PTX to cubin ----------------------------------===//
//
// nvJitLink is loaded with dlopen rather than linked, so that the tools
// (and a statically linked hlo-run carried to a GPU machine) start where
// the CUDA toolkit is absent or is another version; its C entry points are
// declared here with the ABI of CUDA 13's nvJitLink.h (enums as int).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/CubinAssembler.h"

#include "Hlo/Conversion/PtxPipeline.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::hlo;

namespace mlir::hlo {

/// The entry points of libnvJitLink this file calls.
struct NvJitLinkLibrary {
  using Handle = void *;
  int (*create)(Handle *, uint32_t, const char **);
  int (*destroy)(Handle *);
  int (*addData)(Handle, int, const void *, size_t, const char *);
  int (*complete)(Handle);
  int (*getLinkedCubinSize)(Handle, size_t *);
  int (*getLinkedCubin)(Handle, void *);
  int (*getErrorLogSize)(Handle, size_t *);
  int (*getErrorLog)(Handle, char *);
};

} // namespace mlir::hlo

namespace {

constexpr int kNvJitLinkSuccess = 0;
constexpr int kNvJitLinkInputPtx = 2;

/// nvJitLinkResult's names, by value.
constexpr const char *kNvJitLinkResults[] = {"SUCCESS",
                                             "UNRECOGNIZED_OPTION",
                                             "MISSING_ARCH",
                                             "INVALID_INPUT",
                                             "PTX_COMPILE",
                                             "NVVM_COMPILE",
                                             "INTERNAL",
                                             "THREADPOOL",
                                             "UNRECOGNIZED_INPUT",
                                             "FINALIZE",
                                             "NULL_INPUT",
                                             "INCOMPATIBLE_OPTIONS",
                                             "INCORRECT_INPUT_TYPE",
                                             "ARCH_MISMATCH",
                                             "OUTDATED_LIBRARY",
                                             "MISSING_FATBIN",
                                             "UNRECOGNIZED_ARCH",
                                             "UNSUPPORTED_ARCH",
                                             "LTO_NOT_ENABLED"};

std::string resultName(int result) {
  if (result >= 0 && result < int(std::size(kNvJitLinkResults)))
    return std::string("NVJITLINK_ERROR_") + kNvJitLinkResults[result];
  return "error " + std::to_string(result);
}

/// Loads libnvJitLink (`cudaPath`'s lib64, else the library path) and
/// resolves its entry points: the CUDA 13 names first, then the
/// unversioned ones every release exports. Null, with the reason in
/// `error`, where it cannot.
std::unique_ptr<NvJitLinkLibrary> loadNvJitLink(StringRef cudaPath,
                                                std::string &error) {
  SmallVector<std::string> candidates;
  for (StringRef dir : {"lib64", "lib"})
    for (StringRef name : {"libnvJitLink.so.13", "libnvJitLink.so"}) {
      SmallString<256> path(getCudaToolkitPath(cudaPath));
      llvm::sys::path::append(path, dir, name);
      candidates.push_back(path.str().str());
    }
  candidates.push_back("libnvJitLink.so.13");
  candidates.push_back("libnvJitLink.so");
  llvm::sys::DynamicLibrary library;
  for (const std::string &path : candidates) {
    if (path.front() == '/' && !llvm::sys::fs::exists(path))
      continue;
    std::string message;
    library =
        llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &message);
    if (library.isValid())
      break;
  }
  if (!library.isValid()) {
    error = "libnvJitLink not found in " + getCudaToolkitPath(cudaPath) +
            "/lib64 or on the library path";
    return nullptr;
  }
  auto lib = std::make_unique<NvJitLinkLibrary>();
  bool missing = false;
  auto resolve = [&](auto &fn, StringRef name) {
    void *address = library.getAddressOfSymbol(
        ("__nvJitLink" + name + "_13_0").str().c_str());
    if (!address)
      address = library.getAddressOfSymbol(("nvJitLink" + name).str().c_str());
    if (!address && !missing) {
      error = ("libnvJitLink has no nvJitLink" + name).str();
      missing = true;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(address);
  };
  resolve(lib->create, "Create");
  resolve(lib->destroy, "Destroy");
  resolve(lib->addData, "AddData");
  resolve(lib->complete, "Complete");
  resolve(lib->getLinkedCubinSize, "GetLinkedCubinSize");
  resolve(lib->getLinkedCubin, "GetLinkedCubin");
  resolve(lib->getErrorLogSize, "GetErrorLogSize");
  resolve(lib->getErrorLog, "GetErrorLog");
  if (missing)
    return nullptr;
  return lib;
}

/// The library for `cudaPath`, loaded on the first request and kept (with
/// the reason it failed, if it did) for the process.
const NvJitLinkLibrary *getNvJitLink(StringRef cudaPath, std::string &error) {
  struct Entry {
    std::unique_ptr<NvJitLinkLibrary> library;
    std::string error;
  };
  static std::mutex mutex;
  static llvm::StringMap<Entry> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = loaded.try_emplace(getCudaToolkitPath(cudaPath));
  if (inserted)
    it->second.library = loadNvJitLink(cudaPath, it->second.error);
  error = it->second.error;
  return it->second.library.get();
}

std::optional<std::string> findPtxas(StringRef cudaPath) {
  SmallString<256> inToolkit(getCudaToolkitPath(cudaPath));
  llvm::sys::path::append(inToolkit, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(inToolkit))
    return inToolkit.str().str();
  if (llvm::ErrorOr<std::string> onPath = llvm::sys::findProgramByName("ptxas"))
    return *onPath;
  return std::nullopt;
}

FailureOr<std::string> assembleWithNvJitLink(const NvJitLinkLibrary &lib,
                                             StringRef ptx, StringRef chip,
                                             std::string &error) {
  std::string arch = ("-arch=" + chip).str();
  const char *options[] = {arch.c_str(), "-O3"};
  NvJitLinkLibrary::Handle handle = nullptr;
  int result = lib.create(&handle, std::size(options), options);
  if (result != kNvJitLinkSuccess) {
    error = "nvJitLink " + arch + " failed: " + resultName(result);
    return failure();
  }
  auto destroy = llvm::make_scope_exit([&] { lib.destroy(&handle); });
  // nvJitLink reads PTX as a C string.
  std::string text = ptx.str();
  result = lib.addData(handle, kNvJitLinkInputPtx, text.c_str(),
                       text.size() + 1, "kernels.ptx");
  if (result == kNvJitLinkSuccess)
    result = lib.complete(handle);
  if (result != kNvJitLinkSuccess) {
    error = "nvJitLink " + arch + " failed: " + resultName(result);
    size_t size = 0;
    if (lib.getErrorLogSize(handle, &size) == kNvJitLinkSuccess && size > 1) {
      std::string log(size, '\0');
      if (lib.getErrorLog(handle, log.data()) == kNvJitLinkSuccess)
        error += "\n" + std::string(log.c_str());
    }
    return failure();
  }
  size_t size = 0;
  std::string cubin;
  if (lib.getLinkedCubinSize(handle, &size) == kNvJitLinkSuccess) {
    cubin.resize(size);
    if (lib.getLinkedCubin(handle, cubin.data()) != kNvJitLinkSuccess)
      cubin.clear();
  }
  if (cubin.empty()) {
    error = "nvJitLink gave no cubin";
    return failure();
  }
  return cubin;
}

FailureOr<std::string> assembleWithPtxas(StringRef ptxas, StringRef ptx,
                                         StringRef chip, std::string &error) {
  // ptxas reads and writes files: three temporaries, removed on return.
  SmallString<128> in, out, log;
  for (auto [path, suffix] : {std::pair{&in, "ptx"}, std::pair{&out, "cubin"},
                              std::pair{&log, "log"}})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("hlo-kernels", suffix, *path)) {
      error = "cannot create a temporary file: " + ec.message();
      return failure();
    }
  llvm::FileRemover removeIn(in), removeOut(out), removeLog(log);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec) {
      error = "cannot write " + in.str().str() + ": " + ec.message();
      return failure();
    }
    os << ptx;
  }
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, arch, "--opt-level", "3", in,
                                 "-o",  out};
  std::optional<StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/0, /*MemoryLimit=*/0,
                                     &message);
  auto readFile = [](StringRef path) -> std::optional<std::string> {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer)
      return std::nullopt;
    return (*buffer)->getBuffer().str();
  };
  if (rc != 0) {
    error = "ptxas " + arch + " failed" +
            (message.empty() ? "" : ": " + message) + "\n" +
            readFile(log).value_or("");
    return failure();
  }
  std::optional<std::string> cubin = readFile(out);
  if (!cubin) {
    error = "ptxas wrote no cubin";
    return failure();
  }
  return *cubin;
}

} // namespace

std::optional<CubinAssembler>
CubinAssembler::find(StringRef which, StringRef cudaPath, std::string &error) {
  if (which != "auto" && which != "nvjitlink" && which != "ptxas") {
    error = ("unknown PTX assembler '" + which + "' (auto, nvjitlink or ptxas)")
                .str();
    return std::nullopt;
  }
  std::string nvJitLinkError;
  if (which != "ptxas")
    if (const NvJitLinkLibrary *library =
            getNvJitLink(cudaPath, nvJitLinkError))
      return CubinAssembler(Kind::NvJitLink, "", library);
  if (which == "nvjitlink") {
    error = nvJitLinkError;
    return std::nullopt;
  }
  if (std::optional<std::string> ptxas = findPtxas(cudaPath))
    return CubinAssembler(Kind::Ptxas, *ptxas, nullptr);
  error =
      "ptxas not found in " + getCudaToolkitPath(cudaPath) + "/bin or on PATH";
  if (which == "auto")
    error += "; " + nvJitLinkError;
  return std::nullopt;
}

/// Whether `chip` reads as a chip: sm_, a compute capability of two or more
/// digits, and letters for its variant (sm_90a, sm_100f). nvJitLink ends
/// the process on some names that do not (sm_1 to sm_9), so none reaches
/// it.
static bool isChipName(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return false;
  StringRef digits = chip.take_while(llvm::isDigit);
  return digits.size() >= 2 &&
         llvm::all_of(chip.drop_front(digits.size()), llvm::isLower);
}

FailureOr<std::string> CubinAssembler::assemble(StringRef ptx, StringRef chip,
                                                std::string &error) const {
  if (!isChipName(chip)) {
    error = (getKind() == Kind::NvJitLink ? "nvJitLink" : "ptxas") +
            (" -arch=" + chip + " failed: '" + chip +
             "' is not a chip name (sm_ and a compute capability: sm_90, "
             "sm_90a)")
                .str();
    return failure();
  }
  if (kind == Kind::NvJitLink)
    return assembleWithNvJitLink(*library, ptx, chip, error);
  return assembleWithPtxas(ptxas, ptx, chip, error);
}
