//go:build amd64 && !purego

#include "textflag.h"

// func addToSSE(dst, src []float32)
TEXT ·addToSSE(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
add16:
	CMPQ CX, $16
	JLT  add4
	MOVUPS (DI), X0
	MOVUPS 16(DI), X1
	MOVUPS 32(DI), X2
	MOVUPS 48(DI), X3
	MOVUPS (SI), X4
	MOVUPS 16(SI), X5
	MOVUPS 32(SI), X6
	MOVUPS 48(SI), X7
	ADDPS  X4, X0
	ADDPS  X5, X1
	ADDPS  X6, X2
	ADDPS  X7, X3
	MOVUPS X0, (DI)
	MOVUPS X1, 16(DI)
	MOVUPS X2, 32(DI)
	MOVUPS X3, 48(DI)
	ADDQ   $64, DI
	ADDQ   $64, SI
	SUBQ   $16, CX
	JMP    add16
add4:
	CMPQ CX, $4
	JLT  add1
	MOVUPS (DI), X0
	MOVUPS (SI), X4
	ADDPS  X4, X0
	MOVUPS X0, (DI)
	ADDQ   $16, DI
	ADDQ   $16, SI
	SUBQ   $4, CX
	JMP    add4
add1:
	TESTQ CX, CX
	JZ    adddone
	MOVSS (DI), X0
	ADDSS (SI), X0
	MOVSS X0, (DI)
	ADDQ  $4, DI
	ADDQ  $4, SI
	DECQ  CX
	JMP   add1
adddone:
	RET

// func axpySSE(dst, src []float32, v float32)
TEXT ·axpySSE(SB), NOSPLIT, $0-52
	MOVQ  dst_base+0(FP), DI
	MOVQ  dst_len+8(FP), CX
	MOVQ  src_base+24(FP), SI
	MOVSS v+48(FP), X8
	SHUFPS $0, X8, X8
axpy16:
	CMPQ CX, $16
	JLT  axpy4
	MOVUPS (SI), X4
	MOVUPS 16(SI), X5
	MOVUPS 32(SI), X6
	MOVUPS 48(SI), X7
	MULPS  X8, X4
	MULPS  X8, X5
	MULPS  X8, X6
	MULPS  X8, X7
	MOVUPS (DI), X0
	MOVUPS 16(DI), X1
	MOVUPS 32(DI), X2
	MOVUPS 48(DI), X3
	ADDPS  X4, X0
	ADDPS  X5, X1
	ADDPS  X6, X2
	ADDPS  X7, X3
	MOVUPS X0, (DI)
	MOVUPS X1, 16(DI)
	MOVUPS X2, 32(DI)
	MOVUPS X3, 48(DI)
	ADDQ   $64, DI
	ADDQ   $64, SI
	SUBQ   $16, CX
	JMP    axpy16
axpy4:
	CMPQ CX, $4
	JLT  axpy1
	MOVUPS (SI), X4
	MULPS  X8, X4
	MOVUPS (DI), X0
	ADDPS  X4, X0
	MOVUPS X0, (DI)
	ADDQ   $16, DI
	ADDQ   $16, SI
	SUBQ   $4, CX
	JMP    axpy4
axpy1:
	TESTQ CX, CX
	JZ    axpydone
	MOVSS (SI), X4
	MULSS X8, X4
	MOVSS (DI), X0
	ADDSS X4, X0
	MOVSS X0, (DI)
	ADDQ  $4, DI
	ADDQ  $4, SI
	DECQ  CX
	JMP   axpy1
axpydone:
	RET

// func dotSSE(a, b []float32) float32
// One accumulator of four lanes, added to in the Go code's order, so that
// the result is bit-identical to dotGo.
TEXT ·dotSSE(SB), NOSPLIT, $0-52
	MOVQ  a_base+0(FP), DI
	MOVQ  a_len+8(FP), CX
	MOVQ  b_base+24(FP), SI
	XORPS X0, X0
dot16:
	CMPQ CX, $16
	JLT  dot4
	MOVUPS (DI), X4
	MOVUPS 16(DI), X5
	MOVUPS 32(DI), X6
	MOVUPS 48(DI), X7
	MOVUPS (SI), X1
	MOVUPS 16(SI), X2
	MOVUPS 32(SI), X3
	MOVUPS 48(SI), X9
	MULPS  X1, X4
	MULPS  X2, X5
	MULPS  X3, X6
	MULPS  X9, X7
	ADDPS  X4, X0
	ADDPS  X5, X0
	ADDPS  X6, X0
	ADDPS  X7, X0
	ADDQ   $64, DI
	ADDQ   $64, SI
	SUBQ   $16, CX
	JMP    dot16
dot4:
	CMPQ CX, $4
	JLT  dot1
	MOVUPS (DI), X4
	MOVUPS (SI), X1
	MULPS  X1, X4
	ADDPS  X4, X0
	ADDQ   $16, DI
	ADDQ   $16, SI
	SUBQ   $4, CX
	JMP    dot4
dot1:
	TESTQ CX, CX
	JZ    dotsum
	MOVSS (DI), X4
	MULSS (SI), X4
	ADDSS X4, X0
	ADDQ  $4, DI
	ADDQ  $4, SI
	DECQ  CX
	JMP   dot1
dotsum:
	// (s0 + s1) + (s2 + s3)
	MOVAPS X0, X1
	SHUFPS $0x55, X1, X1 // s1
	MOVAPS X0, X2
	SHUFPS $0xAA, X2, X2 // s2
	MOVAPS X0, X3
	SHUFPS $0xFF, X3, X3 // s3
	ADDSS  X1, X0        // s0 + s1
	ADDSS  X3, X2        // s2 + s3
	ADDSS  X2, X0
	MOVSS  X0, ret+48(FP)
	RET
