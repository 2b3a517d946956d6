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

// The first layer with the hidden sums held in vector registers: each
// kernel loads a block of dst, adds every active input's weight row (or
// its value times the row) to it in the order of nz, and stores it once.
// The additions and products are those of addTo and axpy, in the same
// order, so the sums are bit-identical to theirs; only the loads and
// stores of dst between rows are gone.

// func rowsAVX512(dst []float32, w []float32, stride int, nz []int32, x []float32)
// dst holds 256 sums; row i starts at w + i*stride bytes.
TEXT ·rowsAVX512(SB), NOSPLIT, $0-104
	MOVQ dst_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ stride+48(FP), DX
	MOVQ nz_base+56(FP), BX
	MOVQ nz_len+64(FP), CX
	MOVQ x_base+80(FP), R8
	VMOVUPS 0(DI), Z0
	VMOVUPS 64(DI), Z1
	VMOVUPS 128(DI), Z2
	VMOVUPS 192(DI), Z3
	VMOVUPS 256(DI), Z4
	VMOVUPS 320(DI), Z5
	VMOVUPS 384(DI), Z6
	VMOVUPS 448(DI), Z7
	VMOVUPS 512(DI), Z8
	VMOVUPS 576(DI), Z9
	VMOVUPS 640(DI), Z10
	VMOVUPS 704(DI), Z11
	VMOVUPS 768(DI), Z12
	VMOVUPS 832(DI), Z13
	VMOVUPS 896(DI), Z14
	VMOVUPS 960(DI), Z15
	TESTQ CX, CX
	JZ    r512store
r512loop:
	MOVLQSX (BX), AX
	MOVL    (R8)(AX*4), R9
	MOVQ    AX, R10
	IMULQ   DX, R10
	ADDQ    SI, R10
	CMPL    R9, $0x3f800000
	JNE     r512scaled
	VADDPS 0(R10), Z0, Z0
	VADDPS 64(R10), Z1, Z1
	VADDPS 128(R10), Z2, Z2
	VADDPS 192(R10), Z3, Z3
	VADDPS 256(R10), Z4, Z4
	VADDPS 320(R10), Z5, Z5
	VADDPS 384(R10), Z6, Z6
	VADDPS 448(R10), Z7, Z7
	VADDPS 512(R10), Z8, Z8
	VADDPS 576(R10), Z9, Z9
	VADDPS 640(R10), Z10, Z10
	VADDPS 704(R10), Z11, Z11
	VADDPS 768(R10), Z12, Z12
	VADDPS 832(R10), Z13, Z13
	VADDPS 896(R10), Z14, Z14
	VADDPS 960(R10), Z15, Z15
	JMP r512next
r512scaled:
	VBROADCASTSS (R8)(AX*4), Z16
	VMULPS 0(R10), Z16, Z17
	VADDPS Z17, Z0, Z0
	VMULPS 64(R10), Z16, Z18
	VADDPS Z18, Z1, Z1
	VMULPS 128(R10), Z16, Z19
	VADDPS Z19, Z2, Z2
	VMULPS 192(R10), Z16, Z20
	VADDPS Z20, Z3, Z3
	VMULPS 256(R10), Z16, Z21
	VADDPS Z21, Z4, Z4
	VMULPS 320(R10), Z16, Z22
	VADDPS Z22, Z5, Z5
	VMULPS 384(R10), Z16, Z23
	VADDPS Z23, Z6, Z6
	VMULPS 448(R10), Z16, Z24
	VADDPS Z24, Z7, Z7
	VMULPS 512(R10), Z16, Z25
	VADDPS Z25, Z8, Z8
	VMULPS 576(R10), Z16, Z26
	VADDPS Z26, Z9, Z9
	VMULPS 640(R10), Z16, Z27
	VADDPS Z27, Z10, Z10
	VMULPS 704(R10), Z16, Z28
	VADDPS Z28, Z11, Z11
	VMULPS 768(R10), Z16, Z29
	VADDPS Z29, Z12, Z12
	VMULPS 832(R10), Z16, Z30
	VADDPS Z30, Z13, Z13
	VMULPS 896(R10), Z16, Z31
	VADDPS Z31, Z14, Z14
	VMULPS 960(R10), Z16, Z17
	VADDPS Z17, Z15, Z15
r512next:
	ADDQ $4, BX
	DECQ CX
	JNZ  r512loop
r512store:
	VMOVUPS Z0, 0(DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	VMOVUPS Z4, 256(DI)
	VMOVUPS Z5, 320(DI)
	VMOVUPS Z6, 384(DI)
	VMOVUPS Z7, 448(DI)
	VMOVUPS Z8, 512(DI)
	VMOVUPS Z9, 576(DI)
	VMOVUPS Z10, 640(DI)
	VMOVUPS Z11, 704(DI)
	VMOVUPS Z12, 768(DI)
	VMOVUPS Z13, 832(DI)
	VMOVUPS Z14, 896(DI)
	VMOVUPS Z15, 960(DI)
	VZEROUPPER
	RET

// func rowsAVX2(dst []float32, w []float32, stride int, nz []int32, x []float32)
// dst holds 64 sums; row i starts at w + i*stride bytes.
TEXT ·rowsAVX2(SB), NOSPLIT, $0-104
	MOVQ dst_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ stride+48(FP), DX
	MOVQ nz_base+56(FP), BX
	MOVQ nz_len+64(FP), CX
	MOVQ x_base+80(FP), R8
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	TESTQ CX, CX
	JZ    r256store
r256loop:
	MOVLQSX (BX), AX
	MOVL    (R8)(AX*4), R9
	MOVQ    AX, R10
	IMULQ   DX, R10
	ADDQ    SI, R10
	CMPL    R9, $0x3f800000
	JNE     r256scaled
	VADDPS 0(R10), Y0, Y0
	VADDPS 32(R10), Y1, Y1
	VADDPS 64(R10), Y2, Y2
	VADDPS 96(R10), Y3, Y3
	VADDPS 128(R10), Y4, Y4
	VADDPS 160(R10), Y5, Y5
	VADDPS 192(R10), Y6, Y6
	VADDPS 224(R10), Y7, Y7
	JMP r256next
r256scaled:
	VBROADCASTSS (R8)(AX*4), Y8
	VMULPS 0(R10), Y8, Y9
	VADDPS Y9, Y0, Y0
	VMULPS 32(R10), Y8, Y10
	VADDPS Y10, Y1, Y1
	VMULPS 64(R10), Y8, Y11
	VADDPS Y11, Y2, Y2
	VMULPS 96(R10), Y8, Y12
	VADDPS Y12, Y3, Y3
	VMULPS 128(R10), Y8, Y13
	VADDPS Y13, Y4, Y4
	VMULPS 160(R10), Y8, Y14
	VADDPS Y14, Y5, Y5
	VMULPS 192(R10), Y8, Y15
	VADDPS Y15, Y6, Y6
	VMULPS 224(R10), Y8, Y9
	VADDPS Y9, Y7, Y7
r256next:
	ADDQ $4, BX
	DECQ CX
	JNZ  r256loop
r256store:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// Constants of the exp of package math (math/exp_amd64.s), whose FMA
// path expExp8 repeats lane by lane, in its order.
DATA expconst<>+0(SB)/8, $1.4426950408889634073599246810018920   // log2(e)
DATA expconst<>+8(SB)/8, $0.69314718055966295651160180568695068359375 // ln 2, upper part
DATA expconst<>+16(SB)/8, $0.28235290563031577122588448175013436025525412068e-12 // ln 2, lower part
DATA expconst<>+24(SB)/8, $0.0625
DATA expconst<>+32(SB)/8, $2.4801587301587301587e-5
DATA expconst<>+40(SB)/8, $1.9841269841269841270e-4
DATA expconst<>+48(SB)/8, $1.3888888888888888889e-3
DATA expconst<>+56(SB)/8, $8.3333333333333333333e-3
DATA expconst<>+64(SB)/8, $4.1666666666666666667e-2
DATA expconst<>+72(SB)/8, $1.6666666666666666667e-1
DATA expconst<>+80(SB)/8, $0.5
DATA expconst<>+88(SB)/8, $1.0
DATA expconst<>+96(SB)/8, $2.0
DATA expconst<>+104(SB)/8, $0x3ff
GLOBL expconst<>(SB), RODATA, $112

// EXP8 sets Z10 to exp(Z10), eight float64 lanes, as math.Exp computes
// it with FMA for arguments whose result is a normal number; it uses
// Z11-Z13 and Y14.
#define EXP8 \
	VMULPD.BCST expconst<>+0(SB), Z10, Z11 \
	VCVTPD2DQ Z11, Y14 \
	VCVTDQ2PD Y14, Z11 \
	VBROADCASTSD expconst<>+8(SB), Z12 \
	VFNMADD231PD Z12, Z11, Z10 \
	VBROADCASTSD expconst<>+16(SB), Z12 \
	VFNMADD231PD Z12, Z11, Z10 \
	VMULPD.BCST expconst<>+24(SB), Z10, Z10 \
	VBROADCASTSD expconst<>+32(SB), Z11 \
	VFMADD213PD.BCST expconst<>+40(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+48(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+56(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+64(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+72(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+80(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+88(SB), Z10, Z11 \
	VMULPD Z11, Z10, Z10 \
	VADDPD.BCST expconst<>+96(SB), Z10, Z11 \
	VMULPD Z11, Z10, Z10 \
	VADDPD.BCST expconst<>+96(SB), Z10, Z11 \
	VMULPD Z11, Z10, Z10 \
	VADDPD.BCST expconst<>+96(SB), Z10, Z11 \
	VMULPD Z11, Z10, Z10 \
	VADDPD.BCST expconst<>+96(SB), Z10, Z11 \
	VFMADD213PD.BCST expconst<>+88(SB), Z11, Z10 \
	VPMOVSXDQ Y14, Z13 \
	VPADDQ.BCST expconst<>+104(SB), Z13, Z13 \
	VPSLLQ $52, Z13, Z13 \
	VMULPD Z13, Z10, Z10

// func expSigmoidsAVX512(h []float32, out []uint16)
// For the units whose bits are set in out (one mask of 16 a block), with
// 16 <= |x| <= 700: sigmoid's 1 / (1 + float32(math.Exp(float64(-x)))),
// with math.Exp's FMA steps, and their bits cleared; the others are left.
TEXT ·expSigmoidsAVX512(SB), NOSPLIT, $0-48
	MOVQ h_base+0(FP), DI
	MOVQ h_len+8(FP), CX
	MOVQ out_base+24(FP), R8
	MOVL $0x41800000, AX // 16
	VPBROADCASTD AX, Z20
	MOVL $0x442f0000, AX // 700
	VPBROADCASTD AX, Z21
	MOVL $0x3f800000, AX // 1
	VPBROADCASTD AX, Z22
	MOVL $0x7fffffff, AX // all but the sign
	VPBROADCASTD AX, Z23
	TESTQ CX, CX
	JZ    expdone
exploop:
	MOVWLZX (R8), AX
	TESTL   AX, AX
	JZ      expnext
	KMOVW   AX, K1
	VMOVUPS (DI), Z0
	VPANDD  Z23, Z0, Z1         // |x|
	VCMPPS  $0x1d, Z20, Z1, K2  // |x| >= 16, false for NaN
	VCMPPS  $0x12, Z21, Z1, K3  // |x| <= 700
	KANDW   K2, K3, K2
	KANDW   K1, K2, K2          // lanes to do here
	KMOVW   K2, BX
	TESTL   BX, BX
	JZ      expnext
	VXORPS  Z2, Z2, Z2
	VSUBPS  Z0, Z2, Z2          // -x
	VCVTPS2PD Y2, Z10           // float64(-x), lanes 0-7
	EXP8
	VCVTPD2PS Z10, Y3           // float32(exp), lanes 0-7
	VEXTRACTF64X4 $1, Z2, Y4
	VCVTPS2PD Y4, Z10           // lanes 8-15
	EXP8
	VCVTPD2PS Z10, Y4
	VINSERTF64X4 $1, Y4, Z3, Z3
	VADDPS  Z3, Z22, Z3         // 1 + float32(exp)
	VDIVPS  Z3, Z22, Z3         // 1 / that
	VMOVUPS Z3, K2, (DI)
	NOTL    BX
	ANDL    BX, AX              // out &^ done
	MOVW    AX, (R8)
expnext:
	ADDQ $64, DI
	ADDQ $2, R8
	SUBQ $16, CX
	JNZ  exploop
expdone:
	VZEROUPPER
	RET

// func sigmoidsAVX512(h []float32, table *float32, out []uint16)
// sigmoid's table interpolation, sixteen units at a time, for the units
// within (-16, 16); the others are left as they are, their lanes set in
// out (one mask of 16 a block) for the caller to finish. The operations
// are sigmoid's, in its order, so the results are bit-identical.
TEXT ·sigmoidsAVX512(SB), NOSPLIT, $0-56
	MOVQ h_base+0(FP), DI
	MOVQ h_len+8(FP), CX
	MOVQ table+24(FP), SI
	MOVQ out_base+32(FP), R8
	MOVL $0x41800000, AX // 16
	VPBROADCASTD AX, Z20
	MOVL $0xc1800000, AX // -16
	VPBROADCASTD AX, Z21
	MOVL $0x43000000, AX // 128, the table's steps a unit
	VPBROADCASTD AX, Z22
	TESTQ CX, CX
	JZ    sigdone
sigloop:
	VMOVUPS (DI), Z0
	VCMPPS  $0x1e, Z21, Z0, K1 // x > -16, false for NaN
	VCMPPS  $0x11, Z20, Z0, K2 // x < 16, false for NaN
	KANDW   K1, K2, K1
	VADDPS  Z20, Z0, Z1        // x + 16
	VMULPS  Z22, Z1, Z1        // f = (x + 16) * 128
	VCVTTPS2DQ Z1, Z2          // i = int(f)
	VCVTDQ2PS Z2, Z3
	VSUBPS  Z3, Z1, Z4         // t = f - float32(i)
	KMOVW   K1, K3
	VXORPS  Z5, Z5, Z5
	VGATHERDPS (SI)(Z2*4), K3, Z5  // table[i]
	KMOVW   K1, K4
	VXORPS  Z6, Z6, Z6
	VGATHERDPS 4(SI)(Z2*4), K4, Z6 // table[i+1]
	VSUBPS  Z5, Z6, Z6         // table[i+1] - table[i]
	VMULPS  Z6, Z4, Z6         // t * that
	VADDPS  Z6, Z5, Z5         // table[i] + t * that
	VMOVUPS Z5, K1, (DI)
	KNOTW   K1, K1
	KMOVW   K1, AX
	MOVW    AX, (R8)
	ADDQ    $64, DI
	ADDQ    $2, R8
	SUBQ    $16, CX
	JNZ     sigloop
sigdone:
	VZEROUPPER
	RET

// func pruneRowsAVX512(dst []float32, w []float32, in []rawInput)
// dst holds 16 sums; for each input in order, dst += value * its row (16
// wide, at w + index*64 bytes), as axpy does, in one register.
TEXT ·pruneRowsAVX512(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ w_base+24(FP), SI
	MOVQ in_base+48(FP), BX
	MOVQ in_len+56(FP), CX
	VMOVUPS (DI), Z0
	TESTQ CX, CX
	JZ    prunestore
pruneloop:
	MOVQ    (BX), AX         // index
	SHLQ    $6, AX
	VBROADCASTSS 8(BX), Z1   // value
	VMULPS  (SI)(AX*1), Z1, Z2
	VADDPS  Z2, Z0, Z0
	ADDQ    $16, BX
	DECQ    CX
	JNZ     pruneloop
prunestore:
	VMOVUPS Z0, (DI)
	VZEROUPPER
	RET
