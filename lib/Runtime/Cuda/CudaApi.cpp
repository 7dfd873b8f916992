//===- CudaApi.cpp - the CUDA driver and cuBLASLt, opened at run time -----===//

#include "CudaApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

using namespace mlir::thunk::cuda;

/// dlopen of the first of `candidates` that opens; `tried` collects why
/// the others did not.
static void *openFirst(std::initializer_list<std::string> candidates,
                       std::string &tried) {
  for (const std::string &path : candidates) {
    if (path.empty())
      continue;
    if (void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))
      return handle;
    const char *why = dlerror();
    tried += "\n  " + (why ? std::string(why) : path);
  }
  return nullptr;
}

/// `dir`/lib64/`name` when the environment variable `var` names a CUDA
/// installation.
static std::string underEnv(const char *var, const char *name) {
  const char *dir = std::getenv(var);
  return dir && *dir ? std::string(dir) + "/lib64/" + name : std::string();
}

std::string Driver::describe(const char *call, CUresult result) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  return std::string(call) + ": " +
         (name ? name : "CUDA error " + std::to_string(int(result))) +
         (text ? std::string(" (") + text + ")" : std::string());
}

const Driver *mlir::thunk::cuda::loadDriver(std::string &error) {
  static Driver driver;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    void *lib = openFirst({"libcuda.so.1", "libcuda.so"}, tried);
    if (!lib) {
      failure = "no CUDA driver: libcuda.so.1 could not be loaded" + tried;
      return;
    }
    using GetVersion = CUresult (*)(int *);
    using GetProc = CUresult (*)(const char *, void **, int, cuuint64_t,
                                 CUdriverProcAddressQueryResult *);
    auto getVersion =
        reinterpret_cast<GetVersion>(dlsym(lib, "cuDriverGetVersion"));
    auto getProc = reinterpret_cast<GetProc>(dlsym(lib, "cuGetProcAddress_v2"));
    if (!getVersion || !getProc || getVersion(&driver.version) != 0) {
      failure = "the CUDA driver is too old: it has no cuGetProcAddress_v2";
      return;
    }
    if (driver.version < CUDA_VERSION) {
      failure = "the CUDA driver supports CUDA " +
                std::to_string(driver.version / 1000) + "." +
                std::to_string(driver.version % 1000 / 10) +
                "; this runtime was built for CUDA " +
                std::to_string(CUDA_VERSION / 1000) + "." +
                std::to_string(CUDA_VERSION % 1000 / 10);
      return;
    }
#define HLO_LOOKUP(name)                                                       \
  {                                                                            \
    void *fn = nullptr;                                                        \
    CUdriverProcAddressQueryResult found;                                      \
    if (getProc(#name, &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT,         \
                &found) != CUDA_SUCCESS ||                                     \
        !fn) {                                                                 \
      failure = "the CUDA driver has no " #name;                               \
      return;                                                                  \
    }                                                                          \
    driver.name = reinterpret_cast<decltype(driver.name)>(fn);                 \
  }
    HLO_CUDA_DRIVER_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
    if (CUresult r = driver.cuInit(0))
      failure =
          "the CUDA driver could not start: " + driver.describe("cuInit", r);
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  return &driver;
}

std::string CublasLt::describe(const char *call, cublasStatus_t status) const {
  const char *text =
      cublasLtGetStatusString ? cublasLtGetStatusString(status) : nullptr;
  return std::string(call) + ": " +
         (text ? text : "cuBLASLt status " + std::to_string(int(status)));
}

/// A CUDA library `name` (what `$envVar` names, else where the loader,
/// $CUDA_HOME, $CUDA_PATH or /usr/local/cuda has it); null with `failure`
/// set (`what` names the library) when none opens.
static void *openCudaLibrary(const std::string &name, const char *envVar,
                             const char *what, std::string &failure) {
  std::string tried;
  const char *forced = std::getenv(envVar);
  void *lib = openFirst(
      {forced ? forced : "", name, underEnv("CUDA_HOME", name.c_str()),
       underEnv("CUDA_PATH", name.c_str()), "/usr/local/cuda/lib64/" + name},
      tried);
  if (!lib)
    failure = std::string(what) + " (" + name + ") could not be loaded; set " +
              envVar + " to its path" + tried;
  return lib;
}

// Fills `table.fn` for every `fn` of a function list from `lib`.
#define HLO_LOOKUP_IN(table, fn)                                               \
  table.fn = reinterpret_cast<decltype(table.fn)>(dlsym(lib, #fn));            \
  if (!table.fn) {                                                             \
    failure = name + " has no " #fn;                                           \
    return;                                                                    \
  }

const CublasLt *mlir::thunk::cuda::loadCublasLt(std::string &error) {
  static CublasLt lt;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string name =
        "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
    void *lib =
        openCudaLibrary(name, "HLO_CUBLASLT_LIBRARY", "cuBLASLt", failure);
    if (!lib)
      return;
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(lt, fn)
    HLO_CUBLASLT_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
    if (cublasStatus_t s = lt.cublasLtCreate(&lt.handle))
      failure = lt.describe("cublasLtCreate", s);
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  return &lt;
}

std::string Cudnn::describe(const char *call, cudnnStatus_t status) const {
  const char *text =
      cudnnGetErrorString ? cudnnGetErrorString(status) : nullptr;
  return std::string(call) + ": " +
         (text ? text : "cuDNN status " + std::to_string(int(status)));
}

const Cudnn *mlir::thunk::cuda::loadCudnn(std::string &error) {
  static Cudnn dnn;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string name = "libcudnn.so." + std::to_string(CUDNN_MAJOR);
    void *lib = openCudaLibrary(name, "HLO_CUDNN_LIBRARY", "cuDNN", failure);
    if (!lib)
      return;
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(dnn, fn)
    HLO_CUDNN_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
    if (cudnnStatus_t s = dnn.cudnnCreate(&dnn.handle))
      failure = dnn.describe("cudnnCreate", s);
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  return &dnn;
}

std::string Cufft::describe(const char *call, cufftResult status) const {
  return std::string(call) + ": cuFFT status " + std::to_string(int(status));
}

const Cufft *mlir::thunk::cuda::loadCufft(std::string &error) {
  static Cufft fft;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string name = "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
    void *lib = openCudaLibrary(name, "HLO_CUFFT_LIBRARY", "cuFFT", failure);
    if (!lib)
      return;
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(fft, fn)
    HLO_CUFFT_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  return &fft;
}
