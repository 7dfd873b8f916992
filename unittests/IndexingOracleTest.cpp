//===- IndexingOracleTest.cpp - indexing maps vs. the ops' semantics ------===//
//
// An enumeration oracle for the per-op indexing maps. For random small shapes
// of every supported op, a module is built from HLO text, its root's maps are
// computed, and the relation each map denotes (enumerating its whole domain:
// dimensions, range variables, constraints; runtime variables read from
// concrete index data) is compared with the relation between output and
// operand elements that the op really has, computed here independently from
// the op's definition.
//
// Output-to-input maps must give exactly the real relation, except for the
// operands whose maps the spec defines conservatively (pad's and
// dynamic-update-slice's "every output reads the padding value / the
// original"), which must contain it. Input-to-output maps are checked against
// the inverse relation in the same way.
//
//===----------------------------------------------------------------------===//

#include "AffineEvaluator.h"
#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;
using hlo_test::evaluate;

namespace {

using Index = std::vector<int64_t>;
/// (output index, operand index) pairs, concatenated.
using Relation = std::set<std::vector<int64_t>>;


/// Calls `fn` on every index of `shape` (row-major).
void forEachIndex(ArrayRef<int64_t> shape,
                  const std::function<void(const Index &)> &fn) {
  for (int64_t size : shape)
    if (size <= 0)
      return;
  Index index(shape.size(), 0);
  while (true) {
    fn(index);
    int i = static_cast<int>(shape.size()) - 1;
    for (; i >= 0; --i) {
      if (++index[i] < shape[i])
        break;
      index[i] = 0;
    }
    if (i < 0)
      return;
  }
}

int64_t linearize(ArrayRef<int64_t> index, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    linear = linear * shape[i] + index[i];
  return linear;
}

Index delinearize(int64_t linear, ArrayRef<int64_t> shape) {
  Index index(shape.size());
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    index[i] = linear % shape[i];
    linear /= shape[i];
  }
  return index;
}

std::string shapeText(ArrayRef<int64_t> shape, StringRef type = "f32") {
  return (type + "[" + llvm::join(llvm::map_range(shape, [](int64_t v) {
                                    return std::to_string(v);
                                  }),
                                  ",") +
          "]")
      .str();
}

std::string joined(ArrayRef<int64_t> v, StringRef sep = ",") {
  return llvm::join(
      llvm::map_range(v, [](int64_t x) { return std::to_string(x); }), sep);
}

/// One random instance of an op: its module, the shapes and the real reads.
struct Case {
  std::string hlo;
  std::vector<Index> operandShapes;
  Index outputShape;
  /// Integer contents of index operands (by operand number), row-major.
  std::map<unsigned, std::vector<int64_t>> data;
  /// The operand elements output `o` reads: (operand number, index).
  std::function<std::vector<std::pair<unsigned, Index>>(const Index &)> reads;
  /// Operands whose maps may over-approximate the real relation.
  std::set<unsigned> conservative;
};

/// The relation denoted by `maps`; runtime variables take their values from
/// `c.data` through their maps. The spec leaves maps with runtime variables
/// unconstrained (dynamic-update-slice's `d0 - s0` may leave the update):
/// their results outside `targetShape` are dropped.
Relation relationOf(ArrayRef<IndexingMap> maps, Operation *root,
                    const Case &c, ArrayRef<int64_t> targetShape) {
  Relation relation;
  for (const IndexingMap &map : maps) {
    // Box of the dims and range variables; runtime variables are computed.
    std::vector<Interval> box(map.getDimBounds().begin(),
                              map.getDimBounds().end());
    llvm::append_range(box, map.getRangeVarBounds());
    Index sizes;
    for (const Interval &b : box)
      sizes.push_back(b.upper - b.lower + 1);
    forEachIndex(sizes, [&](const Index &offset) {
      Index point(offset.size());
      for (size_t i = 0; i < point.size(); ++i)
        point[i] = offset[i] + box[i].lower;
      ArrayRef<int64_t> d = ArrayRef<int64_t>(point).take_front(
          map.getNumDims());
      Index symbols(point.begin() + map.getNumDims(), point.end());
      for (const RuntimeVar &var : map.getRuntimeVars()) {
        unsigned operand = 0;
        while (operand < root->getNumOperands() &&
               root->getOperand(operand) != var.value)
          ++operand;
        EXPECT_LT(operand, root->getNumOperands())
            << "a runtime variable is not an operand of the op";
        if (operand >= root->getNumOperands())
          return;
        Index element;
        for (AffineExpr e : var.map.getResults())
          element.push_back(evaluate(e, d, symbols));
        int64_t value = c.data.at(operand)[linearize(
            element, c.operandShapes[operand])];
        if (!var.feasibleValues.contains(value))
          return;
        symbols.push_back(value);
      }
      for (const auto &[expr, interval] : map.getConstraints())
        if (!interval.contains(evaluate(expr, d, symbols)))
          return;
      std::vector<int64_t> entry(d.begin(), d.end());
      for (auto [k, e] : llvm::enumerate(map.getAffineMap().getResults())) {
        entry.push_back(evaluate(e, d, symbols));
        if (map.getNumRuntimeVars() &&
            (k >= targetShape.size() || entry.back() < 0 ||
             entry.back() >= targetShape[k]))
          return;
      }
      relation.insert(entry);
    });
  }
  return relation;
}

std::string describe(const Relation &r) {
  std::string s;
  int n = 0;
  for (const auto &e : r) {
    if (n++ == 12) {
      s += " ...";
      break;
    }
    s += " (" + joined(e, " ") + ")";
  }
  return s;
}

void checkCase(const Case &c, MLIRContext &context) {
  OwningOpRef<ModuleOp> module = importHloText(c.hlo, &context);
  ASSERT_TRUE(module) << c.hlo;
  Operation *root = nullptr;
  module->walk([&](ReturnOp ret) {
    auto comp = ret->getParentOfType<ComputationOp>();
    if (comp && comp.getEntry() && ret->getNumOperands() == 1)
      root = ret->getOperand(0).getDefiningOp();
  });
  ASSERT_TRUE(root) << c.hlo;

  unsigned numOperands = c.operandShapes.size();
  std::vector<Relation> real(numOperands), realInverse(numOperands);
  forEachIndex(c.outputShape, [&](const Index &o) {
    for (auto &[operand, index] : c.reads(o)) {
      std::vector<int64_t> entry = o, inverse = index;
      entry.insert(entry.end(), index.begin(), index.end());
      inverse.insert(inverse.end(), o.begin(), o.end());
      real[operand].insert(entry);
      realInverse[operand].insert(inverse);
    }
  });

  auto compare = [&](const Relation &got, const Relation &want,
                     unsigned operand, const std::string &direction) {
    if (c.conservative.count(operand)) {
      for (const auto &e : want)
        if (!got.count(e)) {
          ADD_FAILURE() << direction << " map of operand " << operand
                        << " misses (" << joined(e, " ") << ")\n"
                        << c.hlo;
          return;
        }
      return;
    }
    EXPECT_EQ(got, want) << direction << " maps of operand " << operand
                         << "\nmaps give:" << describe(got)
                         << "\nthe op reads:" << describe(want) << "\n"
                         << c.hlo;
  };

  InstructionIndexing outputToInput = computeOutputToInputIndexing(root, 0);
  ASSERT_EQ(outputToInput.indexing.size(), numOperands) << c.hlo;
  for (unsigned k = 0; k < numOperands; ++k) {
    const OperandIndexing &indexing = outputToInput.indexing[k];
    ASSERT_FALSE(indexing.isUnknown())
        << indexing.unknownReason << "\n"
        << c.hlo;
    compare(relationOf(indexing.maps, root, c, c.operandShapes[k]), real[k],
            k, "output-to-input");
  }
  for (unsigned k = 0; k < numOperands; ++k) {
    InstructionIndexing inputToOutput = computeInputToOutputIndexing(root, k);
    ASSERT_EQ(inputToOutput.indexing.size(), 1u) << c.hlo;
    const OperandIndexing &indexing = inputToOutput.indexing[0];
    if (indexing.isUnknown())
      continue; // Not every input-to-output map is defined (gather).
    compare(relationOf(indexing.maps, root, c, c.outputShape), realInverse[k],
            k, "input-to-output");
  }
}

class Random {
public:
  explicit Random(unsigned seed) : rng(seed) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  Index shape(int minRank, int maxRank, int64_t maxDim = 5) {
    Index s(uniform(minRank, maxRank));
    for (int64_t &d : s)
      d = uniform(1, maxDim);
    return s;
  }
  Index permutation(size_t n) {
    Index p(n);
    for (size_t i = 0; i < n; ++i)
      p[i] = i;
    std::shuffle(p.begin(), p.end(), rng);
    return p;
  }
  /// A sorted random subset of [0, n).
  Index subset(size_t n) {
    Index s;
    for (size_t i = 0; i < n; ++i)
      if (uniform(0, 1))
        s.push_back(i);
    return s;
  }

private:
  std::mt19937 rng;
};

std::string module(const std::vector<Index> &shapes, const std::string &root,
                   const std::vector<std::string> &types = {}) {
  std::string text = "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n"
                     "  b = f32[] parameter(1)\n"
                     "  ROOT sum = f32[] add(a, b)\n}\n\nENTRY e {\n";
  for (size_t i = 0; i < shapes.size(); ++i)
    text += "  p" + std::to_string(i) + " = " +
            shapeText(shapes[i], i < types.size() ? types[i] : "f32") +
            " parameter(" + std::to_string(i) + ")\n";
  return text + "  ROOT r = " + root + "\n}\n";
}

std::string operandList(size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i)
    names.push_back("p" + std::to_string(i));
  return llvm::join(names, ", ");
}

//===----------------------------------------------------------------------===//
// Random instances, one generator per op family.
//===----------------------------------------------------------------------===//

Case elementwise(Random &r) {
  Case c;
  c.outputShape = r.shape(0, 3);
  c.operandShapes = {c.outputShape, c.outputShape};
  c.hlo = module(c.operandShapes, shapeText(c.outputShape) + " add(p0, p1)");
  c.reads = [](const Index &o) {
    return std::vector<std::pair<unsigned, Index>>{{0, o}, {1, o}};
  };
  return c;
}

Case concatenate(Random &r) {
  Case c;
  Index base = r.shape(1, 3);
  int64_t dim = r.uniform(0, base.size() - 1);
  Index offsets;
  c.outputShape = base;
  c.outputShape[dim] = 0;
  for (int i = 0, n = r.uniform(1, 3); i < n; ++i) {
    Index s = base;
    s[dim] = r.uniform(1, 4);
    offsets.push_back(c.outputShape[dim]);
    c.outputShape[dim] += s[dim];
    c.operandShapes.push_back(s);
  }
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) + " concatenate(" +
                     operandList(c.operandShapes.size()) + "), dimensions={" +
                     std::to_string(dim) + "}");
  c.reads = [offsets, dim](const Index &o) {
    unsigned k = offsets.size() - 1;
    while (offsets[k] > o[dim])
      --k;
    Index i = o;
    i[dim] -= offsets[k];
    return std::vector<std::pair<unsigned, Index>>{{k, i}};
  };
  return c;
}

//===----------------------------------------------------------------------===//
// Single-input ops as steps: usable alone and chained inside a fusion.
//===----------------------------------------------------------------------===//

/// A single-input op applied to an input of shape `in`. Its HLO text reads
/// the input as `IN` and, for pad and reduce, a scalar `INIT`.
struct Step {
  std::string op;
  Index in, out;
  /// The input elements output element `o` reads.
  std::function<std::vector<Index>(const Index &)> reads;
  /// Whether `o` reads INIT; `initConservative`: the spec's maps say every
  /// output reads it.
  std::function<bool(const Index &)> readsInit;
  bool initConservative = false;
};

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

Step broadcastStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  Index dims;
  for (size_t d = 0; d < in.size(); ++d) {
    while (r.uniform(0, 2) == 0 && s.out.size() < 4)
      s.out.push_back(r.uniform(1, 3));
    dims.push_back(s.out.size());
    s.out.push_back(in[d]);
  }
  if (r.uniform(0, 1) && s.out.size() < 4)
    s.out.push_back(r.uniform(1, 3));
  s.op = shapeText(s.out) + " broadcast(IN), dimensions={" + joined(dims) + "}";
  s.reads = [dims](const Index &o) {
    Index i;
    for (int64_t d : dims)
      i.push_back(o[d]);
    return std::vector<Index>{i};
  };
  return s;
}

Step transposeStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  Index perm = r.permutation(in.size());
  for (int64_t p : perm)
    s.out.push_back(in[p]);
  s.op = shapeText(s.out) + " transpose(IN), dimensions={" + joined(perm) + "}";
  s.reads = [perm](const Index &o) {
    Index i(o.size());
    for (size_t k = 0; k < o.size(); ++k)
      i[perm[k]] = o[k];
    return std::vector<Index>{i};
  };
  return s;
}

Step reverseStep(Random &r, const Index &in) {
  Step s;
  s.in = s.out = in;
  Index dims = r.subset(in.size());
  s.op = shapeText(s.out) + " reverse(IN), dimensions={" + joined(dims) + "}";
  s.reads = [dims, in](const Index &o) {
    Index i = o;
    for (int64_t d : dims)
      i[d] = in[d] - 1 - o[d];
    return std::vector<Index>{i};
  };
  return s;
}

Step sliceStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  Index start, stride;
  std::string spec;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t first = r.uniform(0, in[d] - 1);
    int64_t limit = r.uniform(first + 1, in[d]);
    int64_t st = r.uniform(1, 3);
    start.push_back(first);
    stride.push_back(st);
    s.out.push_back((limit - first + st - 1) / st);
    spec += (d ? ", [" : "[") + std::to_string(first) + ":" +
            std::to_string(limit) + ":" + std::to_string(st) + "]";
  }
  s.op = shapeText(s.out) + " slice(IN), slice={" + spec + "}";
  s.reads = [start, stride](const Index &o) {
    Index i(o.size());
    for (size_t d = 0; d < o.size(); ++d)
      i[d] = start[d] + o[d] * stride[d];
    return std::vector<Index>{i};
  };
  return s;
}

Step reshapeStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  // Factor the element count another way.
  int64_t rest = numElements(in);
  while (rest > 1 && s.out.size() < 4) {
    Index divisors;
    for (int64_t d = 1; d <= rest; ++d)
      if (rest % d == 0)
        divisors.push_back(d);
    int64_t d = divisors[r.uniform(0, divisors.size() - 1)];
    s.out.push_back(d);
    rest /= d;
  }
  if (rest > 1 || (s.out.empty() && r.uniform(0, 1)))
    s.out.push_back(rest);
  s.op = shapeText(s.out) + " reshape(IN)";
  Index out = s.out;
  s.reads = [in, out](const Index &o) {
    return std::vector<Index>{delinearize(linearize(o, out), in)};
  };
  return s;
}

Step padStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  Index lo, interior;
  std::string spec;
  for (size_t d = 0; d < in.size(); ++d) {
    lo.push_back(r.uniform(0, 2));
    int64_t hi = r.uniform(0, 2);
    interior.push_back(r.uniform(0, 2));
    s.out.push_back(lo[d] + hi + in[d] + (in[d] - 1) * interior[d]);
    spec += (d ? "x" : "") + std::to_string(lo[d]) + "_" +
            std::to_string(hi) + "_" + std::to_string(interior[d]);
  }
  s.op = shapeText(s.out) + " pad(IN, INIT), padding=" + spec;
  s.reads = [in, lo, interior](const Index &o) {
    Index i(o.size());
    for (size_t d = 0; d < o.size(); ++d) {
      int64_t x = o[d] - lo[d];
      if (x < 0 || x % (interior[d] + 1) != 0 ||
          x / (interior[d] + 1) >= in[d])
        return std::vector<Index>{};
      i[d] = x / (interior[d] + 1);
    }
    return std::vector<Index>{i};
  };
  auto reads = s.reads;
  s.readsInit = [reads](const Index &o) { return reads(o).empty(); };
  s.initConservative = true;
  return s;
}

Step reduceStep(Random &r, const Index &in) {
  Step s;
  s.in = in;
  Index dims = r.subset(in.size());
  for (size_t d = 0; d < in.size(); ++d)
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      s.out.push_back(in[d]);
  s.op = shapeText(s.out) + " reduce(IN, INIT), dimensions={" + joined(dims) +
         "}, to_apply=add";
  s.reads = [in, dims](const Index &o) {
    std::vector<Index> reads;
    forEachIndex(in, [&](const Index &i) {
      size_t k = 0;
      for (size_t d = 0; d < i.size(); ++d)
        if (!llvm::is_contained(dims, static_cast<int64_t>(d)) &&
            i[d] != o[k++])
          return;
      reads.push_back(i);
    });
    return reads;
  };
  s.readsInit = [](const Index &) { return true; };
  return s;
}

std::string substitute(std::string text, const std::string &in,
                       const std::string &init) {
  // INIT contains IN: replace it first.
  size_t pos;
  while ((pos = text.find("INIT")) != std::string::npos)
    text.replace(pos, 4, init);
  while ((pos = text.find("IN")) != std::string::npos)
    text.replace(pos, 2, in);
  return text;
}

/// One step as a module: p0 is the input, p1 the scalar INIT.
Case single(Step step) {
  Case c;
  c.outputShape = step.out;
  c.operandShapes = {step.in};
  if (step.readsInit)
    c.operandShapes.push_back({});
  if (step.initConservative)
    c.conservative = {1};
  c.hlo = module(c.operandShapes, substitute(step.op, "p0", "p1"));
  c.reads = [step](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    for (Index &i : step.reads(o))
      reads.push_back({0, std::move(i)});
    if (step.readsInit && step.readsInit(o))
      reads.push_back({1, Index()});
    return reads;
  };
  return c;
}

Case broadcast(Random &r) { return single(broadcastStep(r, r.shape(0, 3))); }
Case transpose(Random &r) { return single(transposeStep(r, r.shape(1, 4))); }
Case reverse(Random &r) { return single(reverseStep(r, r.shape(1, 3))); }
Case slice(Random &r) { return single(sliceStep(r, r.shape(1, 3, 9))); }
Case reshape(Random &r) { return single(reshapeStep(r, r.shape(0, 4, 4))); }
Case pad(Random &r) { return single(padStep(r, r.shape(1, 2, 4))); }
Case reduce(Random &r) { return single(reduceStep(r, r.shape(1, 3))); }

/// A loop fusion of 2 to 5 random steps over one parameter: the fusion's maps
/// compose the steps' maps; the real relation composes the steps' reads.
Case fusionChain(Random &r) {
  Step (*kinds[])(Random &, const Index &) = {
      broadcastStep, transposeStep, reverseStep, sliceStep,
      reshapeStep,   padStep,       reduceStep};
  Index in = r.shape(1, 3, 4);
  std::vector<Step> steps;
  std::string body;
  Index shape = in;
  for (int i = 0, n = r.uniform(2, 5); i < n; ++i) {
    Step step = kinds[r.uniform(0, 6)](r, shape);
    if (numElements(step.out) > 300 || step.out.empty())
      continue;
    body += "  s" + std::to_string(steps.size()) + " = " +
            substitute(step.op,
                       steps.empty() ? "x"
                                     : "s" + std::to_string(steps.size() - 1),
                       "zero") +
            "\n";
    shape = step.out;
    steps.push_back(std::move(step));
  }
  if (steps.empty())
    return fusionChain(r);
  size_t root = body.rfind("  s");
  body.insert(root + 2, "ROOT ");
  Case c;
  c.operandShapes = {in};
  c.outputShape = shape;
  c.hlo = "HloModule m\n\nadd {\n  a = f32[] parameter(0)\n"
          "  b = f32[] parameter(1)\n  ROOT sum = f32[] add(a, b)\n}\n\n"
          "fused {\n  x = " +
          shapeText(in) + " parameter(0)\n  zero = f32[] constant(0)\n" +
          body + "}\n\nENTRY e {\n  p0 = " + shapeText(in) +
          " parameter(0)\n  ROOT r = " + shapeText(shape) +
          " fusion(p0), kind=kLoop, calls=fused\n}\n";
  c.reads = [steps](const Index &o) {
    std::set<Index> current{o};
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      std::set<Index> next;
      for (const Index &index : current)
        for (Index &i : it->reads(index))
          next.insert(std::move(i));
      current = std::move(next);
    }
    std::vector<std::pair<unsigned, Index>> reads;
    for (const Index &i : current)
      reads.push_back({0, i});
    return reads;
  };
  return c;
}

Case dot(Random &r) {
  Case c;
  int64_t batch = r.uniform(0, 1), lhsFree = r.uniform(0, 1),
          rhsFree = r.uniform(0, 1), k = r.uniform(1, 4);
  Index b(batch), m(lhsFree), n(rhsFree);
  for (int64_t &x : b)
    x = r.uniform(1, 3);
  for (int64_t &x : m)
    x = r.uniform(1, 3);
  for (int64_t &x : n)
    x = r.uniform(1, 3);
  // lhs = [batch, k, free], rhs = [batch, free, k].
  Index lhs = b, rhs = b;
  lhs.push_back(k);
  llvm::append_range(lhs, m);
  llvm::append_range(rhs, n);
  rhs.push_back(k);
  c.outputShape = b;
  llvm::append_range(c.outputShape, m);
  llvm::append_range(c.outputShape, n);
  c.operandShapes = {lhs, rhs};
  std::string attrs = batch ? "lhs_batch_dims={0}, rhs_batch_dims={0}, " : "";
  attrs += "lhs_contracting_dims={" + std::to_string(batch) +
           "}, rhs_contracting_dims={" + std::to_string(batch + rhsFree) + "}";
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) + " dot(p0, p1), " + attrs);
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    for (int64_t x = 0; x < k; ++x) {
      Index l(o.begin(), o.begin() + batch), rr = l;
      l.push_back(x);
      l.insert(l.end(), o.begin() + batch, o.begin() + batch + lhsFree);
      rr.insert(rr.end(), o.begin() + batch + lhsFree, o.end());
      rr.push_back(x);
      reads.push_back({0, l});
      reads.push_back({1, rr});
    }
    return reads;
  };
  return c;
}

Case reduceWindow(Random &r) {
  Case c;
  Index operand = r.shape(1, 2, 7), size, stride, lo, hi, dil;
  std::string sizeText, strideText, padText, dilText;
  for (size_t d = 0; d < operand.size(); ++d) {
    size.push_back(r.uniform(1, 3));
    stride.push_back(r.uniform(1, 2));
    lo.push_back(r.uniform(0, 1));
    hi.push_back(r.uniform(0, 1));
    dil.push_back(r.uniform(1, 2));
    int64_t padded = operand[d] + lo[d] + hi[d];
    int64_t window = (size[d] - 1) * dil[d] + 1;
    c.outputShape.push_back(
        padded < window ? 0 : (padded - window) / stride[d] + 1);
    std::string x = d ? "x" : "";
    sizeText += x + std::to_string(size[d]);
    strideText += x + std::to_string(stride[d]);
    padText += x + std::to_string(lo[d]) + "_" + std::to_string(hi[d]);
    dilText += x + std::to_string(dil[d]);
  }
  for (int64_t d : c.outputShape)
    if (d == 0)
      return reduceWindow(r);
  c.operandShapes = {operand, {}};
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) +
                     " reduce-window(p0, p1), window={size=" + sizeText +
                     " stride=" + strideText + " pad=" + padText +
                     " rhs_dilate=" + dilText + "}, to_apply=add");
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads{{1, Index()}};
    forEachIndex(size, [&](const Index &w) {
      Index i(o.size());
      for (size_t d = 0; d < o.size(); ++d) {
        i[d] = o[d] * stride[d] + w[d] * dil[d] - lo[d];
        if (i[d] < 0 || i[d] >= operand[d])
          return;
      }
      reads.push_back({0, i});
    });
    return reads;
  };
  return c;
}

Case dynamicSlice(Random &r) {
  Case c;
  Index operand = r.shape(1, 3, 6);
  Index offsets;
  std::vector<Index> shapes{operand};
  std::vector<std::string> types{"f32"};
  for (size_t d = 0; d < operand.size(); ++d) {
    c.outputShape.push_back(r.uniform(1, operand[d]));
    offsets.push_back(r.uniform(0, operand[d] - c.outputShape[d]));
    shapes.push_back({});
    types.push_back("s32");
    c.data[d + 1] = {offsets.back()};
  }
  c.operandShapes = shapes;
  c.hlo = module(shapes,
                 shapeText(c.outputShape) + " dynamic-slice(" +
                     operandList(shapes.size()) + "), dynamic_slice_sizes={" +
                     joined(c.outputShape) + "}",
                 types);
  c.reads = [offsets](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    Index i(o.size());
    for (size_t d = 0; d < o.size(); ++d) {
      i[d] = o[d] + offsets[d];
      reads.push_back({static_cast<unsigned>(d + 1), Index()});
    }
    reads.push_back({0, i});
    return reads;
  };
  return c;
}

Case dynamicUpdateSlice(Random &r) {
  Case c;
  c.outputShape = r.shape(1, 3, 6);
  Index update, offsets;
  std::vector<std::string> types{"f32", "f32"};
  for (size_t d = 0; d < c.outputShape.size(); ++d) {
    update.push_back(r.uniform(1, c.outputShape[d]));
    offsets.push_back(r.uniform(0, c.outputShape[d] - update[d]));
    types.push_back("s32");
    c.data[d + 2] = {offsets.back()};
  }
  c.operandShapes = {c.outputShape, update};
  for (size_t d = 0; d < c.outputShape.size(); ++d)
    c.operandShapes.push_back({});
  c.conservative = {0};
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) + " dynamic-update-slice(" +
                     operandList(c.operandShapes.size()) + ")",
                 types);
  c.reads = [offsets, update](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    Index u(o.size());
    bool inside = true;
    for (size_t d = 0; d < o.size(); ++d) {
      u[d] = o[d] - offsets[d];
      inside &= u[d] >= 0 && u[d] < update[d];
      reads.push_back({static_cast<unsigned>(d + 2), Index()});
    }
    reads.push_back(inside ? std::make_pair(1u, u) : std::make_pair(0u, o));
    return reads;
  };
  return c;
}

Case gather(Random &r) {
  // The simplified form: indices [N, k], index_vector_dim=1, no collapsed
  // dims, start_index_map = 0..k-1, offset dims 1..rank.
  Case c;
  Index operand = r.shape(1, 3, 6);
  int64_t n = r.uniform(1, 4), k = r.uniform(1, operand.size());
  Index sizes;
  for (int64_t d : operand)
    sizes.push_back(r.uniform(1, d));
  std::vector<int64_t> starts;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t j = 0; j < k; ++j)
      starts.push_back(r.uniform(0, operand[j] - sizes[j]));
  c.operandShapes = {operand, {n, k}};
  c.data[1] = starts;
  c.outputShape = {n};
  llvm::append_range(c.outputShape, sizes);
  Index offsetDims, startMap;
  for (size_t d = 0; d < operand.size(); ++d)
    offsetDims.push_back(d + 1);
  for (int64_t j = 0; j < k; ++j)
    startMap.push_back(j);
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) +
                     " gather(p0, p1), offset_dims={" + joined(offsetDims) +
                     "}, collapsed_slice_dims={}, start_index_map={" +
                     joined(startMap) +
                     "}, index_vector_dim=1, slice_sizes={" + joined(sizes) +
                     "}",
                 {"f32", "s32"});
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    Index i(o.begin() + 1, o.end());
    for (int64_t j = 0; j < k; ++j) {
      i[j] += starts[o[0] * k + j];
      reads.push_back({1, {o[0], j}});
    }
    reads.push_back({0, i});
    return reads;
  };
  return c;
}

Case convolution(Random &r) {
  // 2-D, b01f_01io->b01f, with stride, padding, window dilation and feature
  // groups. The kernel is read whole for every output feature (also where
  // the window covers padding): its maps may be conservative.
  Case c;
  int64_t batch = r.uniform(1, 2), groups = r.uniform(1, 2);
  int64_t inFeatures = groups * r.uniform(1, 2);
  int64_t outFeatures = groups * r.uniform(1, 2);
  Index spatial = {r.uniform(1, 6), r.uniform(1, 6)}, size, stride, lo, hi,
        dil, out;
  std::string sizeText, strideText, padText, dilText;
  for (int d = 0; d < 2; ++d) {
    size.push_back(r.uniform(1, 3));
    stride.push_back(r.uniform(1, 2));
    lo.push_back(r.uniform(0, 1));
    hi.push_back(r.uniform(0, 1));
    dil.push_back(r.uniform(1, 2));
    int64_t padded = spatial[d] + lo[d] + hi[d];
    int64_t window = (size[d] - 1) * dil[d] + 1;
    if (padded < window)
      return convolution(r);
    out.push_back((padded - window) / stride[d] + 1);
    std::string x = d ? "x" : "";
    sizeText += x + std::to_string(size[d]);
    strideText += x + std::to_string(stride[d]);
    padText += x + std::to_string(lo[d]) + "_" + std::to_string(hi[d]);
    dilText += x + std::to_string(dil[d]);
  }
  int64_t groupIn = inFeatures / groups, groupOut = outFeatures / groups;
  c.operandShapes = {{batch, spatial[0], spatial[1], inFeatures},
                     {size[0], size[1], groupIn, outFeatures}};
  c.outputShape = {batch, out[0], out[1], outFeatures};
  c.conservative = {1};
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) +
                     " convolution(p0, p1), window={size=" + sizeText +
                     " stride=" + strideText + " pad=" + padText +
                     " rhs_dilate=" + dilText +
                     "}, dim_labels=b01f_01io->b01f, feature_group_count=" +
                     std::to_string(groups));
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    int64_t group = o[3] / groupOut;
    forEachIndex({size[0], size[1], groupIn}, [&](const Index &w) {
      int64_t y = o[1] * stride[0] + w[0] * dil[0] - lo[0];
      int64_t x = o[2] * stride[1] + w[1] * dil[1] - lo[1];
      if (y < 0 || y >= spatial[0] || x < 0 || x >= spatial[1])
        return;
      reads.push_back({0, {o[0], y, x, group * groupIn + w[2]}});
      reads.push_back({1, {w[0], w[1], w[2], o[3]}});
    });
    return reads;
  };
  return c;
}

Case convolutionBatchGroups(Random &r) {
  // 2-D, b01f_01io->b01f, with batch groups (as JAX writes filter
  // gradients): output feature f of batch group g = f / (F / groups) sums
  // over the input batch block g; the input features are all contracted.
  Case c;
  int64_t groups = r.uniform(2, 3), batch = r.uniform(1, 2);
  int64_t inFeatures = r.uniform(1, 2), outFeatures = groups * r.uniform(1, 2);
  Index spatial = {r.uniform(1, 5), r.uniform(1, 5)}, size, stride, out;
  std::string sizeText, strideText;
  for (int d = 0; d < 2; ++d) {
    size.push_back(r.uniform(1, spatial[d]));
    stride.push_back(r.uniform(1, 2));
    out.push_back((spatial[d] - size[d]) / stride[d] + 1);
    std::string x = d ? "x" : "";
    sizeText += x + std::to_string(size[d]);
    strideText += x + std::to_string(stride[d]);
  }
  int64_t groupOut = outFeatures / groups;
  c.operandShapes = {{groups * batch, spatial[0], spatial[1], inFeatures},
                     {size[0], size[1], inFeatures, outFeatures}};
  c.outputShape = {batch, out[0], out[1], outFeatures};
  c.conservative = {1};
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) +
                     " convolution(p0, p1), window={size=" + sizeText +
                     " stride=" + strideText +
                     "}, dim_labels=b01f_01io->b01f, batch_group_count=" +
                     std::to_string(groups));
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    int64_t group = o[3] / groupOut;
    forEachIndex({size[0], size[1], inFeatures}, [&](const Index &w) {
      int64_t y = o[1] * stride[0] + w[0], x = o[2] * stride[1] + w[1];
      reads.push_back({0, {group * batch + o[0], y, x, w[2]}});
      reads.push_back({1, {w[0], w[1], w[2], o[3]}});
    });
    return reads;
  };
  return c;
}

Case scaledDot(Random &r) {
  // lhs [m, k], rhs [k, n], lhs scale [m / bm, k / bk], rhs scale
  // [k / bk', n / bn]: output (i, j) reads lhs (i, x) and rhs (x, j) for
  // every x, and the scales of their blocks.
  Case c;
  int64_t bm = r.uniform(1, 2), bk = r.uniform(1, 2), bk2 = r.uniform(1, 2),
          bn = r.uniform(1, 2);
  int64_t m = bm * r.uniform(1, 2), n = bn * r.uniform(1, 2);
  int64_t k = bk * bk2 * r.uniform(1, 2);
  c.operandShapes = {{m, k}, {k, n}, {m / bm, k / bk}, {k / bk2, n / bn}};
  c.outputShape = {m, n};
  c.hlo = module(c.operandShapes, shapeText(c.outputShape) +
                                      " scaled-dot(p0, p1, p2, p3), "
                                      "lhs_contracting_dims={1}, "
                                      "rhs_contracting_dims={0}");
  c.reads = [=](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    for (int64_t x = 0; x < k; ++x) {
      reads.push_back({0, {o[0], x}});
      reads.push_back({1, {x, o[1]}});
      reads.push_back({2, {o[0] / bm, x / bk}});
      reads.push_back({3, {x / bk2, o[1] / bn}});
    }
    return reads;
  };
  return c;
}

Case allGather(Random &r) {
  // An output element reads its position in some replica's operand: index
  // i of the gathered dimension is index i mod s of an operand.
  Case c;
  Index operand = r.shape(1, 3);
  int64_t d = r.uniform(0, operand.size() - 1), ranks = r.uniform(1, 4);
  c.operandShapes = {operand};
  c.outputShape = operand;
  c.outputShape[d] *= ranks;
  c.hlo = module(c.operandShapes,
                 shapeText(c.outputShape) +
                     " all-gather(p0), replica_groups={}, dimensions={" +
                     std::to_string(d) + "}");
  int64_t s = operand[d];
  c.reads = [=](const Index &o) {
    Index i = o;
    i[d] = o[d] % s;
    return std::vector<std::pair<unsigned, Index>>{{0, i}};
  };
  return c;
}

Case sort(Random &r) {
  Case c;
  c.outputShape = r.shape(1, 3);
  int64_t dim = r.uniform(0, c.outputShape.size() - 1);
  c.operandShapes = {c.outputShape};
  c.hlo = "HloModule m\n\nless {\n  a = f32[] parameter(0)\n"
          "  b = f32[] parameter(1)\n"
          "  ROOT lt = pred[] compare(a, b), direction=LT\n}\n\nENTRY e {\n"
          "  p0 = " +
          shapeText(c.outputShape) + " parameter(0)\n  ROOT r = " +
          shapeText(c.outputShape) + " sort(p0), dimensions={" +
          std::to_string(dim) + "}, to_apply=less\n}\n";
  Index shape = c.outputShape;
  c.reads = [shape, dim](const Index &o) {
    std::vector<std::pair<unsigned, Index>> reads;
    for (int64_t k = 0; k < shape[dim]; ++k) {
      Index i = o;
      i[dim] = k;
      reads.push_back({0, i});
    }
    return reads;
  };
  return c;
}

struct Family {
  const char *name;
  Case (*generate)(Random &);
};

void PrintTo(const Family &family, std::ostream *os) { *os << family.name; }

class IndexingOracle : public ::testing::TestWithParam<Family> {};

TEST_P(IndexingOracle, MapsMatchTheOpsReads) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  Random random(20261122);
  for (int i = 0; i < 200; ++i) {
    checkCase(GetParam().generate(random), context);
    if (HasFailure())
      return;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ops, IndexingOracle,
    ::testing::Values(
        Family{"elementwise", elementwise}, Family{"broadcast", broadcast},
        Family{"transpose", transpose}, Family{"reverse", reverse},
        Family{"slice", slice}, Family{"reshape", reshape},
        Family{"concatenate", concatenate}, Family{"pad", pad},
        Family{"reduce", reduce}, Family{"dot", dot},
        Family{"reduce_window", reduceWindow},
        Family{"dynamic_slice", dynamicSlice},
        Family{"dynamic_update_slice", dynamicUpdateSlice},
        Family{"gather", gather}, Family{"convolution", convolution},
        Family{"convolution_batch_groups", convolutionBatchGroups},
        Family{"scaled_dot", scaledDot}, Family{"all_gather", allGather},
        Family{"sort", sort}, Family{"fusion_chain", fusionChain}),
    [](const ::testing::TestParamInfo<Family> &info) {
      return std::string(info.param.name);
    });

} // namespace
