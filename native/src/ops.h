// Elementwise, reduction, transpose and softmax kernels for the ops that dominate a
// transformer training step once matmul is native (the cpu backend runs them in generic
// JS with per-element index math, e.g. broadcasting Multiply at ~10 ns/element).
#pragma once

namespace lab {

enum BinaryOp { kAdd = 0, kSub = 1, kMul = 2, kDiv = 3, kSquaredDiff = 4 };
enum UnaryOp { kRelu = 0, kStep = 1, kExp = 2, kNeg = 3, kSquare = 4, kRsqrt = 5, kSqrt = 6, kLog = 7, kSigmoid = 8 };
enum ReduceOp { kSum = 0, kMax = 1, kMean = 2 };

// Strided views: `rank` output dims `shape`, element strides of each input per output dim
// (0 where an input is broadcast). The caller has merged contiguous dims already.
struct Strided {
  int rank;
  long shape[8];
  long sa[8];
  long sb[8];
};

void binary_op(int op, const float* a, const float* b, float* out, const Strided& s);
// out[e] = a[offset of e]; a transpose or any broadcast/strided copy.
void strided_copy(const float* a, float* out, const Strided& s);
void unary_op(int op, const float* x, float* out, long n, float alpha);
// x viewed as [outer, red, inner]; out is [outer, inner].
void reduce_op(int op, const float* x, float* out, long outer, long red, long inner);
// Softmax over the last axis of x viewed as [rows, cols].
void softmax_rows(const float* x, float* out, long rows, long cols);
// Softmax over the last axis of x viewed as [blocks, lq, lk] under a causal mask: row i of each
// block sees columns 0..past+i, the others come out 0 (an inference pass's attention, where the
// mask would otherwise be a [lq, lk] tensor added first and half its columns exponentiated).
void causal_softmax_rows(const float* x, float* out, long blocks, long lq, long lk, long past);
// Softmax's gradient over the last axis: dx = y * (dy - sum(dy * y)) per row of [rows, cols],
// one pass instead of the four ops (two products, a sum, a difference) TF.js composes it from.
void softmax_grad_rows(const float* y, const float* dy, float* dx, long rows, long cols);

// One AdamW step, out of place: g is scaled by grad_scale (global-norm clipping); decoupled
// weight decay wd (0 for gains/biases/embeddings); c1, c2 are the bias corrections 1 - beta^t.
struct AdamParams {
  float lr, b1, b2, eps, c1, c2, wd, grad_scale;
};
void adamw(const float* p, const float* g, const float* m, const float* v, float* p_out, float* m_out,
           float* v_out, long n, const AdamParams& a);

}  // namespace lab
