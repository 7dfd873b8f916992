//===- ThunkDialect.cpp - thunk dialect and attributes --------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::thunk;

#include "Hlo/Dialect/Thunk/ThunkEnums.cpp.inc"
#include "Hlo/Dialect/Thunk/ThunkOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Hlo/Dialect/Thunk/ThunkAttrs.cpp.inc"

void ThunkDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Hlo/Dialect/Thunk/ThunkOps.cpp.inc"
      >();
  registerAttributes();
}

void ThunkDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Hlo/Dialect/Thunk/ThunkAttrs.cpp.inc"
      >();
}

int64_t mlir::thunk::getElementStorageBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementStorageBytes(complex.getElementType());
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

bool mlir::thunk::isPackedElementType(Type type) {
  if (!type.isIntOrFloat() || type.isInteger(1))
    return false;
  unsigned bits = type.getIntOrFloatBitWidth();
  return bits < 8 && 8 % bits == 0;
}

int64_t mlir::thunk::getStorageBytes(MemRefType type) {
  return getStorageBytes(type.getShape(), type.getElementType());
}

int64_t mlir::thunk::getStorageBytes(ArrayRef<int64_t> shape, Type element) {
  int64_t count = ShapedType::getNumElements(shape);
  if (isPackedElementType(element))
    return llvm::divideCeil(count * int64_t(element.getIntOrFloatBitWidth()),
                            8);
  return count * getElementStorageBytes(element);
}

//===----------------------------------------------------------------------===//
// MatrixLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
MatrixLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         MatrixOrder order, int64_t rows, int64_t cols,
                         int64_t leadingDim, int64_t batch,
                         int64_t batchStride) {
  if (rows < 1 || cols < 1 || batch < 1)
    return emitError() << "rows, cols and batch must be positive";
  int64_t minor = order == MatrixOrder::RowMajor ? cols : rows;
  if (leadingDim < minor)
    return emitError() << "leading_dim " << leadingDim
                       << " is less than the minor extent " << minor;
  if (batchStride < 0)
    return emitError() << "batch_stride must not be negative";
  return success();
}

int64_t MatrixLayoutAttr::getOffset(int64_t b, int64_t r, int64_t c) const {
  int64_t major = getOrder() == MatrixOrder::RowMajor ? r : c;
  int64_t minor = getOrder() == MatrixOrder::RowMajor ? c : r;
  return b * getBatchStride() + major * getLeadingDim() + minor;
}

int64_t MatrixLayoutAttr::getExtent() const {
  return getOffset(getBatch() - 1, getRows() - 1, getCols() - 1) + 1;
}

//===----------------------------------------------------------------------===//
// ConvTensorAttr
//===----------------------------------------------------------------------===//

/// Whether `dims` lists each of 0 .. rank - 1 once.
static bool isPermutation(ArrayRef<int64_t> dims, int64_t rank) {
  if (int64_t(dims.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d])
      return false;
    seen[d] = true;
  }
  return true;
}

LogicalResult
ConvTensorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, int64_t batch, int64_t feature,
                       ArrayRef<int64_t> spatial,
                       ArrayRef<int64_t> minorToMajor) {
  int64_t rank = shape.size();
  if (llvm::any_of(shape, [](int64_t d) { return d < 1; }))
    return emitError() << "extents must be positive";
  if (spatial.empty())
    return emitError() << "needs at least one spatial dimension";
  SmallVector<int64_t> roles = {batch, feature};
  llvm::append_range(roles, spatial);
  if (!isPermutation(roles, rank))
    return emitError() << "batch, feature and spatial must name each of the "
                       << rank << " dimensions once";
  if (!isPermutation(minorToMajor, rank))
    return emitError() << "minor_to_major must be a permutation of the " << rank
                       << " dimensions";
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeAttr
//===----------------------------------------------------------------------===//

LogicalResult
TransposeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> shape, ArrayRef<int64_t> permutation) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return emitError() << "extents must not be negative";
  if (!isPermutation(permutation, shape.size()))
    return emitError() << "permutation must list each of the " << shape.size()
                       << " dimensions once";
  return success();
}

//===----------------------------------------------------------------------===//
// TilesAttr
//===----------------------------------------------------------------------===//

LogicalResult TilesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape,
                                ArrayRef<int64_t> tiles, ArrayRef<int64_t> of) {
  if (tiles.size() != shape.size())
    return emitError() << "needs one tile count per dimension of the "
                       << shape.size() << "-dimensional array";
  int64_t count = 1;
  for (auto [extent, n] : llvm::zip(shape, tiles)) {
    if (extent < 0 || n < 1)
      return emitError() << "extents must not be negative and tile counts "
                            "at least 1";
    count *= n;
  }
  if (of.empty())
    return emitError() << "needs the tile of each partition";
  for (int64_t tile : of)
    if (tile < 0 || tile >= count)
      return emitError() << "tile " << tile << " is not one of the " << count
                         << " tiles";
  return success();
}

SmallVector<int64_t> TilesAttr::getTileShape() const {
  SmallVector<int64_t> shape;
  for (auto [extent, n] : llvm::zip(getShape(), getTiles()))
    shape.push_back(llvm::divideCeil(extent, n));
  return shape;
}

SmallVector<int64_t> TilesAttr::getOffsets(int64_t p) const {
  SmallVector<int64_t> tile = getTileShape(), offsets(tile.size());
  int64_t index = getOf()[p];
  for (int64_t d = int64_t(tile.size()) - 1; d >= 0; --d) {
    offsets[d] = index % getTiles()[d] * tile[d];
    index /= getTiles()[d];
  }
  return offsets;
}

int64_t TransposeAttr::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t ConvTensorAttr::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

SmallVector<int64_t> ConvTensorAttr::getStrides() const {
  SmallVector<int64_t> strides(getRank(), 0);
  int64_t stride = 1;
  for (int64_t d : getMinorToMajor()) {
    strides[d] = stride;
    stride *= getShape()[d];
  }
  return strides;
}

SmallVector<int64_t> ConvTensorAttr::getRoleDims() const {
  SmallVector<int64_t> dims = {getBatch(), getFeature()};
  llvm::append_range(dims, getSpatial());
  return dims;
}

SmallVector<int64_t> ConvTensorAttr::getDescriptorDims() const {
  SmallVector<int64_t> result;
  for (int64_t d : getRoleDims())
    result.push_back(getShape()[d]);
  return result;
}

SmallVector<int64_t> ConvTensorAttr::getDescriptorStrides() const {
  SmallVector<int64_t> strides = getStrides(), result;
  for (int64_t d : getRoleDims())
    result.push_back(strides[d]);
  return result;
}

SmallVector<AllocationOp> mlir::thunk::getParameterAllocations(ModuleOp module) {
  SmallVector<AllocationOp> parameters;
  for (auto a : module.getOps<AllocationOp>())
    if (a.getKind() == AllocationKind::Parameter)
      parameters.push_back(a);
  auto key = [](AllocationOp a) {
    return std::make_pair(*a.getParameter(),
                          a.getParameterIndex().value_or(ArrayRef<int64_t>()));
  };
  llvm::stable_sort(parameters, [&](AllocationOp x, AllocationOp y) {
    auto [px, ix] = key(x);
    auto [py, iy] = key(y);
    return px != py ? px < py
                    : std::lexicographical_compare(ix.begin(), ix.end(),
                                                   iy.begin(), iy.end());
  });
  return parameters;
}
