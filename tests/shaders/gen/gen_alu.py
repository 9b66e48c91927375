"""One shader test per TGSI ALU opcode: four lanes of inputs chosen to hit the
interesting cases (signs, rounding, wrap-around, unsigned vs signed), the
result converted to float if needed and mapped by a power-of-two scale and a
bias into the displayable range.  Expected colours come from tgsi_model."""
from common import Tgsi, auto_scale, std_vs, tgsi_test, fmt_float
from tgsi_model import SCALAR, COMPONENT, Machine, bitsf

MASK = 0xffffffff

# name: (srcs [(type, values)], result kind, note)
#   result kind: 'f' float, 'i' signed int, 'u' unsigned int,
#   'mask' ~0/0 (ANDed with 1.0f), 'low8' unsigned, only the low byte shown.
ALU = {
    'ADD': ([('f', [0.25, -0.5, 1.5, 0.125]), ('f', [0.5, 0.75, -1.25, 0.25])], 'f'),
    'MUL': ([('f', [0.5, -0.5, 2.0, 3.0]), ('f', [0.5, -1.0, 0.25, -0.125])], 'f'),
    'MAD': ([('f', [0.5, 2.0, -1.0, 0.25]), ('f', [0.5, 0.25, 0.5, -2.0]),
             ('f', [0.125, -0.25, 1.0, 1.0])], 'f'),
    'FMA': ([('f', [1.5, -0.75, 3.0, 0.5]), ('f', [0.5, 0.5, -0.25, 0.5]),
             ('f', [-0.5, 0.875, 1.0, 0.0])], 'f'),
    'LRP': ([('f', [0.25, 0.75, 0.0, 1.0]), ('f', [1.0, 0.5, 0.125, 0.75]),
             ('f', [0.0, 1.0, 0.5, 0.25])], 'f'),
    'MIN': ([('f', [0.25, -1.0, 3.0, 0.5]), ('f', [0.5, -2.0, 2.5, 0.5])], 'f'),
    'MAX': ([('f', [0.25, -1.0, 3.0, 0.5]), ('f', [0.5, -2.0, 2.5, 0.375])], 'f'),
    'FRC': ([('f', [1.25, -0.25, 3.75, -2.5])], 'f'),
    'FLR': ([('f', [1.25, -0.25, 3.75, -2.5])], 'f'),
    'CEIL': ([('f', [1.25, -0.25, 3.75, -2.5])], 'f'),
    'TRUNC': ([('f', [1.25, -0.25, 3.75, -2.5])], 'f'),
    'ROUND': ([('f', [1.25, -0.75, 2.75, -3.25])], 'f'),
    'SSG': ([('f', [2.5, -0.125, 0.0, -7.0])], 'f'),
    'ABS': ([('f', [-0.25, 0.5, -0.75, 0.0])], 'f'),
    'RCP': ([('f', [2.0, 4.0, -8.0, 0.5])], 'f'),
    'RSQ': ([('f', [4.0, 16.0, 0.25, 1.0])], 'f'),
    'SQRT': ([('f', [4.0, 0.25, 9.0, 0.0625])], 'f'),
    'EX2': ([('f', [1.0, -1.0, 0.5, -2.0])], 'f'),
    'LG2': ([('f', [8.0, 0.5, 2.0, 4.0])], 'f'),
    'POW': ([('f', [2.0, 4.0, 9.0, 0.25]), ('f', [3.0, 0.5, -0.5, 2.0])], 'f'),
    'SIN': ([('f', [0.5, 1.0, -1.5, 3.0])], 'f'),
    'COS': ([('f', [0.0, 1.0, 2.0, -0.5])], 'f'),
    'SLT': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'SGE': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'SEQ': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'SNE': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'SGT': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'SLE': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'f'),
    'FSLT': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'mask'),
    'FSGE': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'mask'),
    'FSEQ': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'mask'),
    'FSNE': ([('f', [0.25, 0.5, 0.75, -1.0]), ('f', [0.5, 0.5, 0.25, -0.5])], 'mask'),
    'CMP': ([('f', [-0.5, 0.0, 0.25, -3.0]), ('f', [0.25, 0.25, 0.25, 0.25]),
             ('f', [0.75, 0.75, 0.75, 0.75])], 'f'),
    'UCMP': ([('u', [0, 1, MASK, 0]), ('f', [0.25, 0.25, 0.25, 0.25]),
              ('f', [0.75, 0.75, 0.75, 0.75])], 'f'),
    'F2I': ([('f', [3.75, -2.5, 10.9, -0.9])], 'i'),
    'F2U': ([('f', [3.75, 0.5, 20.9, 17.0])], 'u'),
    'I2F': ([('i', [-3, 7, 20, 0])], 'f'),
    'U2F': ([('u', [3, 24, 17, 0])], 'f'),
    'LDEXP': ([('f', [0.75, 1.5, 3.0, 0.5]), ('i', [1, -2, -3, 0])], 'f'),
    'UADD': ([('u', [5, MASK, 10, 7]), ('u', [3, 5, 6, 0])], 'u'),
    'UMUL': ([('u', [3, 0x10000, 7, 2]), ('u', [5, 0x10000, 3, 10])], 'u'),
    'UMAD': ([('u', [3, 0x80000000, 7, 2]), ('u', [4, 2, 3, 5]), ('u', [1, 5, 0, 6])], 'u'),
    'UDIV': ([('u', [100, 7, 250, 0xfffffff0]), ('u', [7, 7, 16, 0x10000000])], 'u'),
    'UMOD': ([('u', [100, 7, 250, 9]), ('u', [7, 7, 16, 10])], 'u'),
    'IDIV': ([('i', [-7, 7, -100, 9]), ('i', [2, -2, -7, 10])], 'i'),
    'MOD': ([('i', [-7, 7, -100, 9]), ('i', [2, -2, -7, 10])], 'i'),
    'IMUL_HI': ([('i', [0x40000000, -0x40000000, 3, -1]), ('i', [8, 8, 5, 1])], 'i'),
    'UMUL_HI': ([('u', [0x80000000, MASK, 0x10000, 6]), ('u', [6, 16, 0x30000, 7])], 'u'),
    'INEG': ([('i', [5, -7, 0, 12])], 'i'),
    'IABS': ([('i', [-5, 7, 0, -12])], 'i'),
    'ISSG': ([('i', [-5, 7, 0, -12])], 'i'),
    'IMAX': ([('i', [-5, 7, 0, -12]), ('i', [3, -7, 0, -11])], 'i'),
    'IMIN': ([('i', [-5, 7, 0, -12]), ('i', [3, -7, 0, -11])], 'i'),
    'UMAX': ([('u', [5, 0xffffff10, 0, 10]), ('u', [3, 7, 0, 20])], 'low8'),
    'UMIN': ([('u', [5, 0xffffff10, 0, 10]), ('u', [3, 7, 0, 20])], 'low8'),
    'ISLT': ([('i', [-5, 7, 0, -12]), ('i', [3, -7, 0, -11])], 'mask'),
    'ISGE': ([('i', [-5, 7, 0, -12]), ('i', [3, -7, 0, -11])], 'mask'),
    'USLT': ([('u', [0xfffffff0, 3, 5, 0]), ('u', [3, 0xfffffff0, 5, 1])], 'mask'),
    'USGE': ([('u', [0xfffffff0, 3, 5, 0]), ('u', [3, 0xfffffff0, 5, 1])], 'mask'),
    'USEQ': ([('u', [5, MASK, 0, 7]), ('u', [5, 0x7fffffff, 0, 8])], 'mask'),
    'USNE': ([('u', [5, MASK, 0, 7]), ('u', [5, 0x7fffffff, 0, 8])], 'mask'),
    'NOT': ([('u', [0xfffffff0, MASK, 0xfffffff8, 0xfffffffe])], 'u'),
    'AND': ([('u', [0xf0f3, 0xff, 0x1234, MASK]), ('u', [0x000f, 0x0c, 0x000f, 0x13])], 'u'),
    'OR': ([('u', [0x08, 0x01, 0x00, 0x10]), ('u', [0x01, 0x12, 0x00, 0x02])], 'u'),
    'XOR': ([('u', [0xff, 0x0a, 0x12, 0xfffffff0]), ('u', [0xf3, 0x05, 0x12, 0xfffffff5])], 'u'),
    'SHL': ([('u', [1, 3, 7, 5]), ('u', [4, 2, 0, 33])], 'u'),
    'ISHR': ([('i', [-64, 256, -1, 0x7fffffff]), ('u', [2, 4, 5, 28])], 'i'),
    'USHR': ([('u', [MASK, 256, 0x80000000, 40]), ('u', [28, 4, 28, 35])], 'u'),
    'IBFE': ([('u', [0x700, 0xf000, 0x12345678, MASK]), ('u', [8, 12, 8, 0]),
              ('u', [4, 4, 5, 0])], 'i'),
    'UBFE': ([('u', [0x700, 0xf000, 0x12345678, MASK]), ('u', [8, 12, 8, 0]),
              ('u', [4, 4, 5, 0])], 'u'),
    'BFI': ([('u', [0, 0x0f, 0x10, 0x12]), ('u', [5, 0, 3, 0xff]), ('u', [2, 1, 0, 8]),
             ('u', [2, 2, 2, 0])], 'u'),
    'BREV': ([('u', [0x80000000, 0xc0000000, 0x50000000, 0x08000000])], 'u'),
    'POPC': ([('u', [0xff, 0x80000001, 0, 0x0f0f0f0f])], 'u'),
    'LSB': ([('u', [8, 0x80000000, 0, 0x60])], 'i'),
    'IMSB': ([('i', [8, -1, 0, -9])], 'i'),
    'UMSB': ([('u', [8, 0x80000000, 0, 0x60])], 'i'),
}

FAMILY = {
    'ADD': 'alu', 'MUL': 'alu', 'MAD': 'alu', 'FMA': 'alu', 'LRP': 'alu', 'MIN': 'alu',
    'MAX': 'alu', 'FRC': 'round', 'FLR': 'round', 'CEIL': 'round', 'TRUNC': 'round',
    'ROUND': 'round', 'SSG': 'round', 'ABS': 'round', 'RCP': 'trans', 'RSQ': 'trans',
    'SQRT': 'trans', 'EX2': 'trans', 'LG2': 'trans', 'POW': 'trans', 'SIN': 'trans',
    'COS': 'trans', 'LDEXP': 'trans',
}


def family(op):
    if op in FAMILY:
        return FAMILY[op]
    if op in ('SLT', 'SGE', 'SEQ', 'SNE', 'SGT', 'SLE', 'FSLT', 'FSGE', 'FSEQ', 'FSNE'):
        return 'cmp'
    if op in ('CMP', 'UCMP'):
        return 'select'
    if op in ('F2I', 'F2U', 'I2F', 'U2F'):
        return 'cvt'
    if op in ('NOT', 'AND', 'OR', 'XOR', 'SHL', 'ISHR', 'USHR', 'IBFE', 'UBFE', 'BFI',
              'BREV', 'POPC', 'LSB', 'IMSB', 'UMSB'):
        return 'bit'
    return 'int'


IMM_TYPE = {'f': 'FLT32', 'u': 'UINT32', 'i': 'INT32'}


def emit_op(sh, op, srcs, kind, out_reg, zero_src):
    """Load sources into TEMP[0..], run op into TEMP[4], convert for display.
    Float sources are added to a zero that only the varying knows about, so a
    backend cannot fold the whole test away at compile time."""
    regs = []
    for k, (t, vals) in enumerate(srcs):
        imm = sh.imm(vals, IMM_TYPE[t])
        if t == 'f':
            sh('ADD TEMP[%d], %s, %s' % (k, imm, zero_src))
        else:
            sh('MOV TEMP[%d], %s' % (k, imm))
        regs.append('TEMP[%d]' % k)
    if op in SCALAR:
        for c in 'xyzw':
            sh('%s TEMP[4].%s, %s' % (op, c, ', '.join('%s.%s' % (r, c * 4) for r in regs)))
    else:
        sh('%s TEMP[4], %s' % (op, ', '.join(regs)))
    if kind == 'i':
        sh('I2F TEMP[4], TEMP[4]')
    elif kind == 'u':
        sh('U2F TEMP[4], TEMP[4]')
    elif kind == 'mask':
        sh('AND TEMP[4], TEMP[4], %s' % sh.imm([0x3f800000] * 4, 'UINT32'))
    elif kind == 'low8':
        sh('AND TEMP[4], TEMP[4], %s' % sh.imm([0xff] * 4, 'UINT32'))
        sh('U2F TEMP[4], TEMP[4]')


def alu_shader(proc, op, srcs, kind):
    """Build the computing shader; returns (shader, scale imm) after scaling."""
    sh = Tgsi(proc)
    if proc == 'FRAG':
        sh.decl('IN[0], GENERIC[0], PERSPECTIVE')
        sh.decl('OUT[0], COLOR')
        out = 'OUT[0]'
    else:
        sh.decl('IN[0]')
        sh.decl('OUT[0], POSITION')
        sh.decl('OUT[1], GENERIC[0]')
        sh('MOV OUT[0], IN[0]')
        out = 'OUT[1]'
    sh.decl('TEMP[0..4]')
    emit_op(sh, op, srcs, kind, out, 'IN[0].zzzz')
    return sh, out


def compute(sh, proc):
    """Run the shader body with a zero z input and read TEMP[4]."""
    from tgsi_model import Program
    prog = Program(sh.code + ['END'])
    m = Machine(prog, {0: [0, 0, 0, 0x3f800000]}, {}, sh.imm_bits())
    m.run()
    return [bitsf(b) for b in m.regs['TEMP'][4]]


def make(op, stage='fs', name=None):
    srcs, kind = ALU[op]
    proc = 'FRAG' if stage == 'fs' else 'VERT'
    sh, out = alu_shader(proc, op, srcs, kind)
    vals = compute(sh, proc)
    scale, bias = auto_scale(vals)
    if kind != 'f' and kind != 'mask' and scale < 1.0 / 64:
        raise ValueError('%s: integer results %s too far apart to tell off-by-one' % (op, vals))
    for v in vals:
        if not 0.0 <= v * scale + bias <= 1.0:
            raise ValueError('%s: %s leaves the displayable range' % (op, vals))
    k = sh.imm([scale, bias, 0.0, 0.0])
    sh('MAD %s, TEMP[4], %s.xxxx, %s.yyyy' % (out, k, k))
    if stage == 'fs':
        vs, fs = std_vs(), sh
    else:
        vs = sh
        fs = Tgsi('FRAG')
        fs.decl('IN[0], GENERIC[0], PERSPECTIVE')
        fs.decl('OUT[0], COLOR')
        fs('MOV OUT[0], IN[0]')
    name = name or 'tgsi-%s-%s%s' % (family(op), op.lower().replace('_', ''),
                                      '' if stage == 'fs' else '-vs')
    desc = ', '.join('%s %s' % (t, [hex(v) if t != 'f' and abs(v) > 255 else v for v in vals_])
                     for t, vals_ in srcs)
    comment = ('TGSI %s in the %s shader, four lanes of immediates.\nInputs: %s\n'
               'raw result %s, shown as result * %s + %s%s.' %
               (op, 'fragment' if stage == 'fs' else 'vertex', desc,
                ['%.6g' % v for v in vals], fmt_float(scale), fmt_float(bias),
                {'i': ' after I2F', 'u': ' after U2F', 'mask': ' after AND with 1.0f',
                 'low8': ' of the low byte (AND 0xff, U2F)', 'f': ''}[kind]))
    return tgsi_test(name, comment, vs, fs, 'all')


def generate():
    files = []
    for op in ALU:
        files.append(make(op))
    for op in ('MAD', 'MUL', 'EX2', 'FLR', 'F2I', 'UMAD', 'ISHR',
               'CMP', 'SLT', 'IMAX'):
        files.append(make(op, 'vs'))
    return files
