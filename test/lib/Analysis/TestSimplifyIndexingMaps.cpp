//===- TestSimplifyIndexingMaps.cpp - simplify #hlo.indexing_map ----------===//
//
// --hlo-test-simplify-indexing-maps: replaces every #hlo.indexing_map
// attribute in the module (also inside dictionaries and arrays) by its
// simplified form (IndexingMap::simplify: range-aware rewriting of the
// results and the constraints, bound tightening, mod-constraint merging).
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct TestSimplifyIndexingMapsPass
    : PassWrapper<TestSimplifyIndexingMapsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSimplifyIndexingMapsPass)

  StringRef getArgument() const final {
    return "hlo-test-simplify-indexing-maps";
  }
  StringRef getDescription() const final {
    return "Simplify every #hlo.indexing_map attribute in place";
  }

  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](IndexingMapAttr attr) -> Attribute {
      IndexingMap map = attr.getMap();
      map.simplify();
      return IndexingMapAttr::get(attr.getContext(), map);
    });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/false);
  }
};

} // namespace

void mlir::hlo::registerTestSimplifyIndexingMapsPass() {
  PassRegistration<TestSimplifyIndexingMapsPass>();
}
