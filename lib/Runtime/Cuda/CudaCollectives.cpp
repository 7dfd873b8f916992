//===- CudaCollectives.cpp - collective thunks through NCCL ---------------===//

#include "CudaCollectives.h"

#include "Hlo/Runtime/Cuda/CudaRuntime.h"

#include "llvm/ADT/TypeSwitch.h"

#include <atomic>
#include <mutex>

using namespace mlir;
using namespace mlir::thunk;
using namespace mlir::thunk::cuda;

LogicalResult mlir::thunk::cuda::readRaggedRanges(
    const Driver &cu, RaggedAllToAllOp op,
    function_ref<CUdeviceptr(Value)> address, CUstream stream,
    std::array<SmallVector<int64_t>, 3> &ranges, std::string &error) {
  int64_t entries = op.getInputOffsets().getType().getNumElements();
  int64_t width = op.getInputOffsets().getType().getElementTypeBitWidth() / 8;
  Value slices[] = {op.getInputOffsets(), op.getSendSizes(),
                    op.getOutputOffsets()};
  std::vector<uint8_t> raw(entries * width);
  for (auto [slice, to] : llvm::zip_equal(slices, ranges)) {
    CUresult r =
        cu.cuMemcpyDtoHAsync(raw.data(), address(slice), raw.size(), stream);
    if (r == CUDA_SUCCESS)
      r = cu.cuStreamSynchronize(stream);
    if (r != CUDA_SUCCESS) {
      error = op->getName().getStringRef().str() + ": " +
              cu.describe("reading the offsets and sizes", r);
      return failure();
    }
    to.resize(entries);
    for (int64_t i = 0; i < entries; ++i) {
      if (width == 4) {
        int32_t v;
        std::memcpy(&v, raw.data() + 4 * i, 4);
        to[i] = v;
      } else {
        std::memcpy(&to[i], raw.data() + 8 * i, 8);
      }
    }
  }
  return success();
}

#ifndef HLO_HAVE_NCCL

struct NcclComms::State {};
NcclComms::NcclComms() = default;
NcclComms::~NcclComms() = default;

std::unique_ptr<NcclComms> NcclComms::create(ModuleOp, int64_t devices,
                                             std::string &error) {
  error = "the program runs on " + std::to_string(devices) +
          " devices, which needs NCCL: this runtime was built without "
          "nccl.h; run it with --device=host";
  return nullptr;
}
LogicalResult NcclComms::run(Operation *, int64_t,
                             function_ref<CUdeviceptr(Value)>, CUstream,
                             std::string &error) {
  error = "no NCCL";
  return failure();
}
void NcclComms::abort() {}
bool NcclComms::aborted() const { return false; }
LogicalResult mlir::thunk::checkNcclCollectives(ModuleOp,
                                               std::string &error) {
  error = "this runtime was built without nccl.h";
  return failure();
}
LogicalResult NcclComms::checkAsyncErrors(int64_t, std::string &) {
  return success();
}

#else

namespace {
/// A device's communicator in one clique: its rank and the clique's size.
struct Member {
  ncclComm_t comm = nullptr;
  int rank = 0;
  int size = 0;
};

/// How NCCL reduces an element: its data type and operation, and how many
/// NCCL elements one element is (2 for a complex number's parts).
struct Reduction {
  ncclDataType_t type = ncclFloat32;
  ncclRedOp_t op = ncclSum;
  int64_t parts = 1;
};

FailureOr<Reduction> getReduction(int version, Type type, ReductionKind kind,
                                  std::string &error) {
  Reduction r;
  switch (kind) {
  case ReductionKind::Sum:
    r.op = ncclSum;
    break;
  case ReductionKind::Product:
    r.op = ncclProd;
    break;
  case ReductionKind::Min:
    r.op = ncclMin;
    break;
  case ReductionKind::Max:
    r.op = ncclMax;
    break;
  }
  auto unsupported = [&]() -> FailureOr<Reduction> {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << type;
    error = "NCCL cannot " + stringifyReductionKind(kind).str() + " " + name +
            " elements";
    return failure();
  };
  if (auto complex = dyn_cast<ComplexType>(type)) {
    // A sum of complex numbers is the sums of their parts.
    if (kind != ReductionKind::Sum)
      return unsupported();
    FailureOr<Reduction> parts =
        getReduction(version, complex.getElementType(), kind, error);
    if (failed(parts))
      return failure();
    parts->parts = 2;
    return parts;
  }
  if (type.isInteger(1)) {
    // pred: or and and as the maximum and minimum of bytes 0 and 1.
    r.type = ncclUint8;
    if (kind == ReductionKind::Sum)
      r.op = ncclMax;
    else if (kind == ReductionKind::Product)
      r.op = ncclMin;
    return r;
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    bool u = integer.isUnsigned();
    switch (integer.getWidth()) {
    case 8:
      r.type = u ? ncclUint8 : ncclInt8;
      return r;
    case 32:
      r.type = u ? ncclUint32 : ncclInt32;
      return r;
    case 64:
      r.type = u ? ncclUint64 : ncclInt64;
      return r;
    default:
      return unsupported();
    }
  }
  if (type.isF16())
    r.type = ncclFloat16;
  else if (type.isBF16())
    r.type = ncclBfloat16;
  else if (type.isF32())
    r.type = ncclFloat32;
  else if (type.isF64())
    r.type = ncclFloat64;
  else if (isa<Float8E4M3FNType>(type) && version >= 22400)
    r.type = ncclFloat8e4m3;
  else if (isa<Float8E5M2Type>(type) && version >= 22400)
    r.type = ncclFloat8e5m2;
  else
    return unsupported();
  return r;
}

/// Whether the elements of `type` with one index along `dim` are
/// contiguous and in the order of that index: `dim` is the layout's most
/// major dimension but for dimensions of size 1. `strides` gets the
/// layout's strides.
bool isMajorMost(MemRefType type, int64_t dim,
                 SmallVectorImpl<int64_t> &strides) {
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (int64_t(d) != dim && size > 1 && strides[d] > strides[dim])
      return false;
  return true;
}

/// Whether `input` and `output` split along `dim` into chunks NCCL moves
/// as bytes: `dim` most major in both, the other dimensions in one order.
LogicalResult checkChunks(Operation *op, Value input, Value output,
                          int64_t dim, std::string &error) {
  auto in = cast<MemRefType>(input.getType());
  auto out = cast<MemRefType>(output.getType());
  SmallVector<int64_t> inStrides, outStrides;
  bool ok = isMajorMost(in, dim, inStrides) && isMajorMost(out, dim, outStrides);
  for (int64_t d = 0; ok && d < in.getRank(); ++d)
    ok = d == dim || in.getDimSize(d) == 1 || inStrides[d] == outStrides[d];
  if (ok)
    return success();
  error = op->getName().getStringRef().str() + ": dimension " +
          std::to_string(dim) +
          " is not the most major one of the slices' layouts, which NCCL "
          "needs (XLA's GPU layout assignment makes it so; "
          "hlo-gpu-layout-assignment does too)";
  return failure();
}

int64_t bytesOf(Value v) { return getStorageBytes(cast<MemRefType>(v.getType())); }
} // namespace

struct NcclComms::State {
  const Nccl *nccl = nullptr;
  const Driver *cu = nullptr;
  /// Each device's member of the clique of its group, by the collectives'
  /// `groups` attribute (one per distinct list, shared by the devices'
  /// copies of the program: attributes are uniqued in the context).
  DenseMap<Attribute, SmallVector<Member>> byGroups;
  /// Each device's member of the clique of every device (rank: device id),
  /// for collective-permutes.
  SmallVector<Member> world;
  /// Each device's communicators.
  SmallVector<SmallVector<ncclComm_t>> ofDevice;
  std::atomic<bool> aborted{false};
  std::mutex abortMutex;
};

NcclComms::NcclComms() : state(std::make_unique<State>()) {}

NcclComms::~NcclComms() {
  if (state->aborted)
    return;
  for (auto &comms : state->ofDevice)
    for (ncclComm_t c : comms)
      state->nccl->ncclCommDestroy(c);
}

/// Checks that NCCL (of version `version`) can run collective `op` as
/// the runtime issues it.
static LogicalResult checkCollective(int version, Operation *op,
                                     std::string &error) {
  auto elementType = [](Value v) {
    return cast<MemRefType>(v.getType()).getElementType();
  };
  auto reducible = [&](ValueRange inputs, ReductionKind kind) {
    for (Value v : inputs)
      if (failed(getReduction(version, elementType(v), kind, error)))
        return failure();
    return success();
  };
  // The size of the first group: the verifier makes them all one size.
  int64_t members = 1;
  if (auto groups = op->getAttrOfType<ArrayAttr>("groups"); groups &&
                                                             !groups.empty())
    members = cast<DenseI64ArrayAttr>(groups[0]).size();
  // Each input and output splits along `dim` into chunks NCCL moves as
  // whole bytes: `inParts` chunks of the input, `outParts` of the output.
  auto chunks = [&](ValueRange inputs, ValueRange outputs, int64_t dim,
                    int64_t inParts, int64_t outParts) {
    for (auto [in, out] : llvm::zip_equal(inputs, outputs)) {
      if (failed(checkChunks(op, in, out, dim, error)))
        return failure();
      int64_t inBytes = bytesOf(in), outBytes = bytesOf(out);
      if (inBytes % inParts || outBytes % outParts ||
          inBytes / inParts != outBytes / outParts) {
        std::string type;
        llvm::raw_string_ostream os(type);
        os << in.getType();
        error = op->getName().getStringRef().str() + ": NCCL cannot split " +
                type + " into chunks of whole bytes";
        return failure();
      }
    }
    return success();
  };
  auto sameTypes = [&](ValueRange inputs, ValueRange outputs) {
    for (auto [in, out] : llvm::zip_equal(inputs, outputs))
      if (in.getType() != out.getType()) {
        error = op->getName().getStringRef().str() +
                ": an input and its output have different layouts";
        return failure();
      }
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllReduceOp a) {
        return reducible(a.getInputs(), a.getReduction());
      })
      .Case([&](ReduceScatterOp r) {
        if (failed(reducible(r.getInputs(), r.getReduction())))
          return failure();
        return chunks(r.getInputs(), r.getOutputs(), r.getDimension(),
                      members, 1);
      })
      .Case([&](AllGatherOp g) {
        return chunks(g.getInputs(), g.getOutputs(), g.getDimension(), 1,
                      members);
      })
      .Case([&](AllToAllOp a) {
        if (std::optional<uint64_t> dim = a.getDimension())
          return chunks(a.getInputs(), a.getOutputs(), *dim, members, members);
        return success();
      })
      .Case([&](RaggedAllToAllOp r) {
        // Rows move as bytes: dimension 0 most major, whole bytes a row.
        MemRefType in = r.getInput().getType();
        if (failed(checkChunks(op, r.getInput(), r.getOutput(), 0, error)))
          return failure();
        if (in.getDimSize(0) > 0 && bytesOf(r.getInput()) % in.getDimSize(0)) {
          error = op->getName().getStringRef().str() +
                  ": NCCL cannot move rows of a packed type that are not "
                  "whole bytes";
          return failure();
        }
        return success();
      })
      .Case([&](CollectivePermuteOp p) {
        return sameTypes(p.getInputs(), p.getOutputs());
      })
      .Case([&](CollectiveBroadcastOp b) {
        return sameTypes(b.getInputs(), b.getOutputs());
      })
      .Default([](Operation *) { return success(); });
}

LogicalResult mlir::thunk::checkNcclCollectives(ModuleOp program,
                                               std::string &error) {
  WalkResult walk = program.walk([&](Operation *op) {
    return isCollectiveThunk(op) &&
                   failed(checkCollective(NCCL_VERSION_CODE, op, error))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

std::unique_ptr<NcclComms> NcclComms::create(ModuleOp module, int64_t devices,
                                             std::string &error) {
  const Nccl *nccl = loadNccl(error);
  const Driver *cu = nccl ? loadDriver(error) : nullptr;
  if (!cu)
    return nullptr;
  std::unique_ptr<NcclComms> comms(new NcclComms());
  State &s = *comms->state;
  s.nccl = nccl;
  s.cu = cu;
  s.ofDevice.resize(devices);
  // One clique per group: ncclCommInitAll over the group's devices (CUDA
  // ordinals = device ids), rank = position in the group.
  auto clique = [&](ArrayRef<int64_t> group, SmallVectorImpl<Member> &members) {
    SmallVector<int> ordinals(group.begin(), group.end());
    SmallVector<ncclComm_t> made(group.size());
    if (ncclResult_t r = nccl->ncclCommInitAll(made.data(), int(group.size()),
                                               ordinals.data())) {
      error = nccl->describe("ncclCommInitAll", r);
      return failure();
    }
    for (auto [rank, d] : llvm::enumerate(group)) {
      members[d] = {made[rank], int(rank), int(group.size())};
      s.ofDevice[d].push_back(made[rank]);
    }
    return success();
  };
  WalkResult walk = module.walk([&](Operation *op) {
    if (!isCollectiveThunk(op))
      return WalkResult::advance();
    if (failed(checkCollective(nccl->version, op, error)))
      return WalkResult::interrupt();
    if (isa<CollectivePermuteOp>(op)) {
      if (!s.world.empty())
        return WalkResult::advance();
      s.world.resize(devices);
      SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, devices));
      return failed(clique(all, s.world)) ? WalkResult::interrupt()
                                          : WalkResult::advance();
    }
    Attribute key = op->getAttr("groups");
    if (s.byGroups.count(key))
      return WalkResult::advance();
    SmallVector<Member> &members = s.byGroups[key];
    members.resize(devices);
    for (Attribute group : cast<ArrayAttr>(key))
      if (failed(clique(cast<DenseI64ArrayAttr>(group).asArrayRef(), members)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return nullptr;
  return comms;
}

void NcclComms::abort() {
  std::lock_guard<std::mutex> lock(state->abortMutex);
  if (state->aborted.exchange(true))
    return;
  for (auto &comms : state->ofDevice)
    for (ncclComm_t c : comms)
      state->nccl->ncclCommAbort(c);
}

bool NcclComms::aborted() const { return state->aborted; }

LogicalResult NcclComms::checkAsyncErrors(int64_t device, std::string &error) {
  if (state->aborted)
    return success();
  for (ncclComm_t c : state->ofDevice[device]) {
    ncclResult_t async = ncclSuccess;
    ncclResult_t r = state->nccl->ncclCommGetAsyncError(c, &async);
    if (r == ncclSuccess)
      r = async;
    if (r != ncclSuccess && r != ncclInProgress) {
      error = state->nccl->describe("NCCL", r);
      return failure();
    }
  }
  return success();
}

/// ragged-all-to-all on `stream`, as XLA's RaggedAllToAllThunk does it:
/// the device's offsets and sizes are read to the host, each member sends
/// every peer the (output offset, size) pairs of its updates to it (one
/// exchange of 2k 64-bit integers per peer), then the rows move by
/// grouped send / receive, each received update written where its sender
/// said. The offsets and sizes a device received are checked against its
/// output before any row moves; recv_sizes is not read (what arrives is
/// what the senders send).
static LogicalResult runRagged(NcclComms::State &s, RaggedAllToAllOp op,
                               Member m, function_ref<CUdeviceptr(Value)> at,
                               CUstream stream, std::string &error);

LogicalResult NcclComms::run(Operation *op, int64_t device,
                             function_ref<CUdeviceptr(Value)> address,
                             CUstream stream, std::string &error) {
  State &s = *state;
  const Nccl &nccl = *s.nccl;
  if (s.aborted) {
    error = "the NCCL communicators were aborted after a device failed";
    return failure();
  }
  if (auto ragged = dyn_cast<RaggedAllToAllOp>(op))
    return runRagged(s, ragged,
                     s.byGroups.find(op->getAttr("groups"))->second[device],
                     address, stream, error);
  auto st = reinterpret_cast<cudaStream_t>(stream);
  auto ptr = [&](Value v, int64_t byteOffset = 0) {
    return reinterpret_cast<char *>(address(v)) + byteOffset;
  };
  // The first failure among the group's calls (ncclGroupEnd runs anyway).
  std::string failure;
  auto check = [&](const char *call, ncclResult_t r) {
    if (r != ncclSuccess && failure.empty())
      failure = nccl.describe(call, r);
  };
  auto checkCu = [&](const char *call, CUresult r) {
    if (r != CUDA_SUCCESS && failure.empty())
      failure = s.cu->describe(call, r);
  };
  auto member = [&]() -> Member {
    return s.byGroups.find(op->getAttr("groups"))->second[device];
  };
  auto reduction = [&](Value v, ReductionKind kind) {
    return *getReduction(nccl.version,
                         cast<MemRefType>(v.getType()).getElementType(), kind,
                         error);
  };
  auto elements = [](Value v) {
    return cast<MemRefType>(v.getType()).getNumElements();
  };
  // The bytes of one of `n` equal chunks of `v` (checkCollective made
  // them whole).
  auto chunkBytes = [&](Value v, int n) { return bytesOf(v) / n; };
  // A permute's outputs without a source, zeroed after the group (whose
  // sends may read an input sharing their bytes).
  SmallVector<Value> zeros;
  check("ncclGroupStart", nccl.ncclGroupStart());
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllReduceOp a) {
        Member m = member();
        for (auto [in, out] : llvm::zip_equal(a.getInputs(), a.getOutputs())) {
          Reduction r = reduction(in, a.getReduction());
          check("ncclAllReduce",
                nccl.ncclAllReduce(ptr(in), ptr(out), elements(in) * r.parts,
                                   r.type, r.op, m.comm, st));
        }
      })
      .Case([&](ReduceScatterOp a) {
        Member m = member();
        for (auto [in, out] : llvm::zip_equal(a.getInputs(), a.getOutputs())) {
          Reduction r = reduction(in, a.getReduction());
          check("ncclReduceScatter",
                nccl.ncclReduceScatter(ptr(in), ptr(out),
                                       elements(out) * r.parts, r.type, r.op,
                                       m.comm, st));
        }
      })
      .Case([&](AllGatherOp a) {
        Member m = member();
        for (auto [in, out] : llvm::zip_equal(a.getInputs(), a.getOutputs()))
          check("ncclAllGather",
                nccl.ncclAllGather(ptr(in), ptr(out), chunkBytes(out, m.size),
                                   ncclUint8, m.comm, st));
      })
      .Case([&](AllToAllOp a) {
        Member m = member();
        if (a.getDimension()) {
          // Chunk j of each input to member j, chunk j of each output from
          // member j.
          for (auto [in, out] :
               llvm::zip_equal(a.getInputs(), a.getOutputs())) {
            int64_t chunk = chunkBytes(in, m.size);
            for (int j = 0; j < m.size; ++j) {
              check("ncclSend", nccl.ncclSend(ptr(in, j * chunk), chunk,
                                              ncclUint8, j, m.comm, st));
              check("ncclRecv", nccl.ncclRecv(ptr(out, j * chunk), chunk,
                                              ncclUint8, j, m.comm, st));
            }
          }
          return;
        }
        // The tuple form: input j to member j, output k from member k.
        for (int j = 0; j < m.size; ++j) {
          Value in = a.getInputs()[j], out = a.getOutputs()[j];
          check("ncclSend", nccl.ncclSend(ptr(in), bytesOf(in), ncclUint8, j,
                                          m.comm, st));
          check("ncclRecv", nccl.ncclRecv(ptr(out), bytesOf(out), ncclUint8,
                                          j, m.comm, st));
        }
      })
      .Case([&](CollectivePermuteOp p) {
        Member m = s.world[device];
        std::optional<int64_t> source, target;
        for (auto [from, to] : p.getSourceTargetPairs()) {
          if (from == device)
            target = to;
          if (to == device)
            source = from;
        }
        for (auto [in, out] : llvm::zip_equal(p.getInputs(), p.getOutputs())) {
          if (target)
            check("ncclSend", nccl.ncclSend(ptr(in), bytesOf(in), ncclUint8,
                                            int(*target), m.comm, st));
          if (source)
            check("ncclRecv", nccl.ncclRecv(ptr(out), bytesOf(out), ncclUint8,
                                            int(*source), m.comm, st));
          else
            zeros.push_back(out);
        }
      })
      .Case([&](CollectiveBroadcastOp b) {
        Member m = member();
        for (auto [in, out] : llvm::zip_equal(b.getInputs(), b.getOutputs()))
          check("ncclBroadcast",
                nccl.ncclBroadcast(ptr(in), ptr(out), bytesOf(in), ncclUint8,
                                   /*root=*/0, m.comm, st));
      });
  check("ncclGroupEnd", nccl.ncclGroupEnd());
  for (Value out : zeros)
    checkCu("cuMemsetD8Async",
            s.cu->cuMemsetD8Async(address(out), 0, bytesOf(out), stream));
  if (failure.empty())
    return success();
  error = op->getName().getStringRef().str() + ": " + failure;
  return mlir::failure();
}

static LogicalResult runRagged(NcclComms::State &s, RaggedAllToAllOp op,
                               Member m, function_ref<CUdeviceptr(Value)> at,
                               CUstream stream, std::string &error) {
  const Nccl &nccl = *s.nccl;
  const Driver &cu = *s.cu;
  std::string problem;
  auto checkCu = [&](const char *call, CUresult r) {
    if (r != CUDA_SUCCESS && problem.empty())
      problem = cu.describe(call, r);
    return problem.empty();
  };
  auto check = [&](const char *call, ncclResult_t r) {
    if (r != ncclSuccess && problem.empty())
      problem = nccl.describe(call, r);
    return problem.empty();
  };
  auto finish = [&]() {
    if (problem.empty())
      return success();
    error = op->getName().getStringRef().str() + ": " + problem;
    return failure();
  };
  auto st = reinterpret_cast<cudaStream_t>(stream);
  int64_t entries = op.getInputOffsets().getType().getNumElements();
  int64_t g = m.size, k = entries / g;
  std::array<SmallVector<int64_t>, 3> ranges;
  if (failed(readRaggedRanges(cu, op, at, stream, ranges, error)))
    return failure();
  auto &[inOffsets, sizes, outOffsets] = ranges;
  // Exchange: segment j of `mine` (to peer j) holds the (output offset,
  // size) of each update to j; segment j of `theirs` gets peer j's to us.
  int64_t segment = 2 * k * 8;
  std::vector<int64_t> mine(2 * entries), theirs(2 * entries);
  for (int64_t i = 0; i < entries; ++i) {
    mine[2 * i] = outOffsets[i];
    mine[2 * i + 1] = sizes[i];
  }
  CUdeviceptr scratch = 0;
  int64_t bytes = 2 * entries * 8;
  if (!checkCu("cuMemAlloc", cu.cuMemAlloc(&scratch, 2 * bytes)))
    return finish();
  if (checkCu("cuMemcpyHtoDAsync",
              cu.cuMemcpyHtoDAsync(scratch, mine.data(), bytes, stream))) {
    check("ncclGroupStart", nccl.ncclGroupStart());
    for (int j = 0; j < g; ++j) {
      check("ncclSend",
            nccl.ncclSend(reinterpret_cast<void *>(scratch + j * segment),
                          2 * k, ncclInt64, j, m.comm, st));
      check("ncclRecv", nccl.ncclRecv(reinterpret_cast<void *>(scratch + bytes +
                                                               j * segment),
                                      2 * k, ncclInt64, j, m.comm, st));
    }
    check("ncclGroupEnd", nccl.ncclGroupEnd());
    if (problem.empty())
      checkCu(
          "cuMemcpyDtoHAsync",
          cu.cuMemcpyDtoHAsync(theirs.data(), scratch + bytes, bytes, stream));
  }
  // Nothing may still use the scratch (or `mine`) when it is freed.
  checkCu("cuStreamSynchronize", cu.cuStreamSynchronize(stream));
  cu.cuMemFree(scratch);
  if (!problem.empty())
    return finish();
  // Bounds, then the rows.
  MemRefType in = op.getInput().getType(), out = op.getOutput().getType();
  int64_t inRows = in.getDimSize(0), outRows = out.getDimSize(0);
  int64_t rowBytes = inRows ? bytesOf(op.getInput()) / inRows : 0;
  auto outside = [](int64_t first, int64_t size, int64_t rows) {
    return size < 0 || first < 0 || first > rows - size;
  };
  for (int64_t i = 0; i < entries; ++i) {
    int64_t peer = i / k;
    if (outside(inOffsets[i], sizes[i], inRows) ||
        outside(theirs[2 * i], theirs[2 * i + 1], outRows)) {
      error = op->getName().getStringRef().str() + ": update " +
              std::to_string(i % k) + " to or from group member " +
              std::to_string(peer) + " has rows out of bounds";
      return failure();
    }
  }
  check("ncclGroupStart", nccl.ncclGroupStart());
  for (int64_t i = 0; i < entries; ++i) {
    int peer = int(i / k);
    if (sizes[i] > 0)
      check("ncclSend",
            nccl.ncclSend(reinterpret_cast<void *>(at(op.getInput()) +
                                                   inOffsets[i] * rowBytes),
                          sizes[i] * rowBytes, ncclUint8, peer, m.comm, st));
    if (theirs[2 * i + 1] > 0)
      check("ncclRecv",
            nccl.ncclRecv(reinterpret_cast<void *>(at(op.getOutput()) +
                                                   theirs[2 * i] * rowBytes),
                          theirs[2 * i + 1] * rowBytes, ncclUint8, peer, m.comm,
                          st));
  }
  check("ncclGroupEnd", nccl.ncclGroupEnd());
  return finish();
}

#endif // HLO_HAVE_NCCL
