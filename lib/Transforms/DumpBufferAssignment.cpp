//===- DumpBufferAssignment.cpp - hlo-dump-buffer-assignment --------------===//
//
// Prints the buffer assignment in a module's attributes as XLA writes
// `*-buffer-assignment.txt`, then the live ranges and the totals.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODUMPBUFFERASSIGNMENT
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

void printIndex(raw_ostream &os, ArrayRef<int64_t> index) {
  os << '{';
  llvm::interleave(index, os, ",");
  os << '}';
}

/// The slice of a value's defining position, as the IR holds it.
BufferSliceAttr sliceOf(const HloValue &v) {
  return getBufferSlice(v.defined.value, v.defined.node);
}

LogicalResult print(ModuleOp module, raw_ostream &os) {
  auto allocations = module->getAttrOfType<ArrayAttr>("hlo.buffer_allocations");
  if (!allocations)
    return module.emitError("hlo-dump-buffer-assignment: the module has no "
                            "buffer assignment (run hlo-buffer-assignment)");
  HloDataflowAnalysis dataflow(module);
  HloAliasAnalysis alias(dataflow);
  HloLiveRange liveRange(alias);
  DenseMap<Value, std::string> names = getHloInstructionNames(module);
  auto valueName = [&](const HloValue &v) {
    std::string text;
    llvm::raw_string_ostream s(text);
    s << v.id << ' ' << names.lookup(v.defined.value);
    if (isa<TupleType>(v.defined.value.getType()))
      printIndex(s, v.index);
    return text;
  };
  std::vector<SmallVector<const HloValue *>> contents(allocations.size());
  for (const HloValue &v : dataflow.getValues())
    if (BufferSliceAttr s = sliceOf(v);
        s && s.getAllocation() < int64_t(contents.size()))
      contents[s.getAllocation()].push_back(&v);

  ComputationOp entry = dataflow.getEntry();
  int64_t total = 0, temp = 0;
  os << "BufferAssignment:\n";
  for (Attribute a : allocations) {
    auto alloc = cast<BufferAllocationAttr>(a);
    total += alloc.getSize();
    os << "allocation " << alloc.getIndex() << ": size " << alloc.getSize();
    // XLA's color: the memory space of the allocation's arrays.
    int64_t color = 0;
    for (const HloValue *v : contents[alloc.getIndex()])
      color = std::max(color, getMemorySpace(v->type));
    if (color)
      os << ", color " << color;
    switch (alloc.getKind()) {
    case BufferAllocationKind::Parameter: {
      os << ", parameter " << *alloc.getParameter() << ", shape |";
      if (entry && *alloc.getParameter() < entry.getNumArguments())
        printHloShape(
            os, getSubshape(entry.getArgument(*alloc.getParameter()).getType(),
                            alloc.getParameterIndex()));
      os << "| at ShapeIndex ";
      printIndex(os, alloc.getParameterIndex());
      if (alloc.getMaybeLiveOut())
        os << ", maybe-live-out";
      break;
    }
    case BufferAllocationKind::Constant:
      os << ", constant";
      if (alloc.getMaybeLiveOut())
        os << ", maybe-live-out";
      break;
    case BufferAllocationKind::Output:
      // The live-out value's shape (temporaries may share the allocation).
      for (const HloValue *v : contents[alloc.getIndex()]) {
        if (!v->liveOut)
          continue;
        os << ", output shape is |";
        printHloShape(os, v->type);
        os << "|";
        break;
      }
      os << ", maybe-live-out";
      break;
    case BufferAllocationKind::Temp:
      os << ", preallocated-temp";
      if (!color)
        temp = alloc.getSize();
      break;
    }
    os << ":\n";
    for (const HloValue *v : contents[alloc.getIndex()]) {
      BufferSliceAttr s = sliceOf(*v);
      os << " value: <" << valueName(*v) << " @0> (size=" << s.getSize()
         << ",offset=" << s.getOffset() << "): ";
      printHloShape(os, v->type);
      os << '\n';
    }
  }
  os << "\nBufferLiveRange:\n";
  for (const HloValue &v : dataflow.getValues()) {
    TimeInterval t = liveRange.getValueInterval(v.id);
    os << "  " << valueName(v) << ':' << t.start << '-' << t.end << '\n';
  }
  // The temporaries' lower bound: the peak of live bytes of the buffers in
  // the temp allocation.
  int64_t bound = liveRange.getPeakLiveBytes([&](const HloBuffer &b) {
    BufferSliceAttr s = sliceOf(dataflow.getValue(b.values.front()));
    return s && s.getAllocation() < int64_t(allocations.size()) &&
           cast<BufferAllocationAttr>(allocations[s.getAllocation()])
                   .getKind() == BufferAllocationKind::Temp &&
           !getMemorySpace(dataflow.getValue(b.values.front()).type);
  });
  os << "\nTotal bytes used: " << total << "\nTemp bytes: " << temp
     << " (lower bound " << bound << ")\n";
  return success();
}

struct DumpBufferAssignmentPass
    : hlo::impl::HloDumpBufferAssignmentBase<DumpBufferAssignmentPass> {
  using HloDumpBufferAssignmentBase::HloDumpBufferAssignmentBase;

  void runOnOperation() override {
    markAllAnalysesPreserved();
    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(file, &error);
    if (!out) {
      getOperation().emitError("hlo-dump-buffer-assignment: ") << error;
      return signalPassFailure();
    }
    if (failed(print(getOperation(), out->os())))
      return signalPassFailure();
    out->keep();
  }
};

} // namespace
