//===- CudaApi.cpp - the CUDA driver and cuBLASLt, opened at run time -----===//

#include "CudaApi.h"

#include "llvm/ADT/STLFunctionalExtras.h"

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

/// The table of CUDA library `Table` for device ordinal `device`, opened
/// and filled once per process and device: `name` found as
/// openCudaLibrary finds it, then `fill(table, lib)` looks its functions up
/// (and makes the device's handle, with its context current), giving an
/// error message or "". Null with `error` set when that failed, now or at
/// the first call.
template <typename Table>
static const Table *
loadOnce(const std::string &name, const char *envVar, const char *what,
         int device, llvm::function_ref<std::string(Table &, void *)> fill,
         std::string &error) {
  static Table tables[kMaxDevices];
  static std::string failures[kMaxDevices];
  static std::once_flag onces[kMaxDevices];
  if (device < 0 || device >= kMaxDevices) {
    error = std::string(what) + ": no device " + std::to_string(device);
    return nullptr;
  }
  std::string &failure = failures[device];
  std::call_once(onces[device], [&] {
    if (void *lib = openCudaLibrary(name, envVar, what, failure))
      failure = fill(tables[device], lib);
  });
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  return &tables[device];
}

// Fills `table.fn` for every `fn` of a function list from `lib`.
#define HLO_LOOKUP_IN(table, fn)                                               \
  table.fn = reinterpret_cast<decltype(table.fn)>(dlsym(lib, #fn));            \
  if (!table.fn)                                                               \
    return name + " has no " #fn;

const CublasLt *mlir::thunk::cuda::loadCublasLt(int device,
                                                std::string &error) {
  const std::string name = "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);
  return loadOnce<CublasLt>(
      name, "HLO_CUBLASLT_LIBRARY", "cuBLASLt", device,
      [&](CublasLt &lt, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(lt, fn)
        HLO_CUBLASLT_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        if (cublasStatus_t s = lt.cublasLtCreate(&lt.handle))
          return lt.describe("cublasLtCreate", s);
        return "";
      },
      error);
}

std::string Cudnn::describe(const char *call, cudnnStatus_t status) const {
  const char *text =
      cudnnGetErrorString ? cudnnGetErrorString(status) : nullptr;
  return std::string(call) + ": " +
         (text ? text : "cuDNN status " + std::to_string(int(status)));
}

const Cudnn *mlir::thunk::cuda::loadCudnn(int device, std::string &error) {
  const std::string name = "libcudnn.so." + std::to_string(CUDNN_MAJOR);
  return loadOnce<Cudnn>(
      name, "HLO_CUDNN_LIBRARY", "cuDNN", device,
      [&](Cudnn &dnn, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(dnn, fn)
        HLO_CUDNN_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        if (cudnnStatus_t s = dnn.cudnnCreate(&dnn.handle))
          return dnn.describe("cudnnCreate", s);
        return "";
      },
      error);
}

std::string Cufft::describe(const char *call, cufftResult status) const {
  return std::string(call) + ": cuFFT status " + std::to_string(int(status));
}

const Cufft *mlir::thunk::cuda::loadCufft(int device, std::string &error) {
  const std::string name = "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
  return loadOnce<Cufft>(
      name, "HLO_CUFFT_LIBRARY", "cuFFT", device,
      [&](Cufft &fft, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(fft, fn)
        HLO_CUFFT_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        return "";
      },
      error);
}

std::string Cublas::describe(const char *call, cublasStatus_t status) const {
  const char *text =
      cublasGetStatusString ? cublasGetStatusString(status) : nullptr;
  return std::string(call) + ": " +
         (text ? text : "cuBLAS status " + std::to_string(int(status)));
}

const Cublas *mlir::thunk::cuda::loadCublas(int device, std::string &error) {
  const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
  return loadOnce<Cublas>(
      name, "HLO_CUBLAS_LIBRARY", "cuBLAS", device,
      [&](Cublas &blas, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(blas, fn)
        HLO_CUBLAS_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        if (cublasStatus_t s = blas.cublasCreate_v2(&blas.handle))
          return blas.describe("cublasCreate", s);
        return "";
      },
      error);
}

std::string Cusolver::describe(const char *call,
                               cusolverStatus_t status) const {
  return std::string(call) + ": cuSOLVER status " + std::to_string(int(status));
}

const Cusolver *mlir::thunk::cuda::loadCusolver(int device,
                                                std::string &error) {
  const std::string name =
      "libcusolver.so." + std::to_string(CUSOLVER_VER_MAJOR);
  return loadOnce<Cusolver>(
      name, "HLO_CUSOLVER_LIBRARY", "cuSOLVER", device,
      [&](Cusolver &solver, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(solver, fn)
        HLO_CUSOLVER_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        if (cusolverStatus_t s = solver.cusolverDnCreate(&solver.handle))
          return solver.describe("cusolverDnCreate", s);
        if (cusolverStatus_t s = solver.cusolverDnCreateParams(&solver.params))
          return solver.describe("cusolverDnCreateParams", s);
        return "";
      },
      error);
}

#ifdef HLO_HAVE_NCCL
std::string Nccl::describe(const char *call, ncclResult_t result) const {
  const char *text = ncclGetErrorString ? ncclGetErrorString(result) : nullptr;
  return std::string(call) + ": " +
         (text ? text : "NCCL result " + std::to_string(int(result)));
}

const Nccl *mlir::thunk::cuda::loadNccl(std::string &error) {
  const std::string name = "libnccl.so." + std::to_string(NCCL_MAJOR);
  return loadOnce<Nccl>(
      name, "HLO_NCCL_LIBRARY", "NCCL", /*device=*/0,
      [&](Nccl &nccl, void *lib) -> std::string {
#define HLO_LOOKUP(fn) HLO_LOOKUP_IN(nccl, fn)
        HLO_NCCL_FUNCTIONS(HLO_LOOKUP)
#undef HLO_LOOKUP
        if (ncclResult_t r = nccl.ncclGetVersion(&nccl.version))
          return nccl.describe("ncclGetVersion", r);
        return "";
      },
      error);
}
#endif
