"""A small, independent model of the TGSI subset the bundled shader tests use.

It exists so the expected values in tests/shaders/*.shader_test are computed
from the GL/TGSI definitions written down here, not read back from sbcc's own
interpreter.  One invocation at a time; registers hold raw 32-bit words so the
integer and bit opcodes see exactly the bits the float ones produce.
"""
import math
import re
import struct

MASK = 0xffffffff


def f32(x):
    """Round a Python float to the nearest float32."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    return struct.unpack('<f', struct.pack('<f', x))[0]


def fbits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bitsf(u):
    return struct.unpack('<f', struct.pack('<I', u & MASK))[0]


def s32(u):
    u &= MASK
    return u - (1 << 32) if u & 0x80000000 else u


def u32(i):
    return i & MASK


SWZ = {'x': 0, 'y': 1, 'z': 2, 'w': 3}

SRC_RE = re.compile(r'^(-)?(\|)?([A-Z]+)\[(?:(\d+)|ADDR\[(\d+)\]\.([xyzw])([+-]\d+)?)\](?:\((\d+)\))?'
                    r'(?:\.([xyzw]{4}))?(\|)?$')
DST_RE = re.compile(r'^([A-Z]+)\[(?:(\d+)|ADDR\[(\d+)\]\.([xyzw])([+-]\d+)?)\](?:\((\d+)\))?(?:\.([xyzw]+))?$')


def _strip_dim(text):
    # CONST[0][n] is constant buffer 0, the only one the tests use.
    return re.sub(r'^(-?\|?CONST)\[0\]\[', r'\1[', text.strip())


class Src:
    def __init__(self, text):
        m = SRC_RE.match(_strip_dim(text))
        if not m:
            raise ValueError('bad src ' + text)
        self.neg = bool(m.group(1))
        self.abs = bool(m.group(2))
        self.file = m.group(3)
        if m.group(4) is not None:
            self.index, self.ind = int(m.group(4)), None
        else:
            self.ind = (int(m.group(5)), SWZ[m.group(6)])
            self.index = int(m.group(7) or 0)
        self.swz = [SWZ[c] for c in (m.group(9) or 'xyzw')]


class Dst:
    def __init__(self, text):
        m = DST_RE.match(text.strip())
        if not m:
            raise ValueError('bad dst ' + text)
        self.file = m.group(1)
        if m.group(2) is not None:
            self.index, self.ind = int(m.group(2)), None
        else:
            self.ind = (int(m.group(3)), SWZ[m.group(4)])
            self.index = int(m.group(5) or 0)
        self.mask = [SWZ[c] for c in (m.group(7) or 'xyzw')]


_SRC_CACHE = {}
_DST_CACHE = {}


def parse_src(text):
    o = _SRC_CACHE.get(text)
    if o is None:
        o = _SRC_CACHE[text] = Src(text)
    return o


def parse_dst(text):
    o = _DST_CACHE.get(text)
    if o is None:
        o = _DST_CACHE[text] = Dst(text)
    return o


class Killed(Exception):
    pass


# Operand type of each opcode's sources and result: 'f' float, 'i' signed, 'u' unsigned.
def _f(fn):
    return ('f', 'f', fn)


def _i(fn):
    return ('i', 'i', fn)


def _u(fn):
    return ('u', 'u', fn)


def _sdiv(a, b):
    if b == 0:
        return -1 if a < 0 else 0 if a == 0 else 0x7fffffff
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _smod(a, b):
    if b == 0:
        return 0
    return a - _sdiv(a, b) * b


def _f2i(x):
    if math.isnan(x):
        return 0
    return max(-2**31, min(2**31 - 1, int(x)))


def _f2u(x):
    if math.isnan(x) or x <= 0:
        return 0
    return min(2**32 - 1, int(x))


def _ibfe(v, off, bits):
    off &= 31
    bits &= 31
    if bits == 0:
        return 0
    if off + bits < 32:
        v = (v << (32 - bits - off)) & MASK
        return s32(v) >> (32 - bits)
    return s32(v) >> off


def _ubfe(v, off, bits):
    off &= 31
    bits &= 31
    if bits == 0:
        return 0
    if off + bits < 32:
        return ((v << (32 - bits - off)) & MASK) >> (32 - bits)
    return v >> off


def _bfi(base, ins, off, bits):
    off &= 31
    bits &= 31
    if bits == 0:
        return base
    mask = ((1 << bits) - 1) << off & MASK
    return (base & ~mask | (ins << off) & mask) & MASK


def _brev(v):
    return int('{:032b}'.format(v)[::-1], 2)


def _umsb(v):
    return -1 if v == 0 else v.bit_length() - 1


def _imsb(v):
    v = s32(v)
    if v < 0:
        v = ~v
    return -1 if v == 0 else v.bit_length() - 1


def _lsb(v):
    return -1 if v == 0 else (v & -v).bit_length() - 1


def _log2(x):
    return math.log2(x) if x > 0 else float('-inf')


def _round_even(x):
    return float(round(x))


def _ssg(x):
    return 1.0 if x > 0 else -1.0 if x < 0 else 0.0


COMPONENT = {
    'MOV': ('x', 'x', lambda a: a),
    'ADD': _f(lambda a, b: a + b),
    'MUL': _f(lambda a, b: a * b),
    'MAD': _f(lambda a, b, c: a * b + c),
    'FMA': _f(lambda a, b, c: a * b + c),
    'LRP': _f(lambda a, b, c: a * b + (1.0 - a) * c),
    'MIN': _f(min),
    'MAX': _f(max),
    'FRC': _f(lambda a: a - math.floor(a)),
    'FLR': _f(lambda a: float(math.floor(a))),
    'CEIL': _f(lambda a: float(math.ceil(a))),
    'TRUNC': _f(lambda a: float(math.trunc(a))),
    'ROUND': _f(_round_even),
    'SSG': _f(_ssg),
    'ABS': _f(abs),
    'SLT': _f(lambda a, b: 1.0 if a < b else 0.0),
    'SGE': _f(lambda a, b: 1.0 if a >= b else 0.0),
    'SEQ': _f(lambda a, b: 1.0 if a == b else 0.0),
    'SNE': _f(lambda a, b: 1.0 if a != b else 0.0),
    'SGT': _f(lambda a, b: 1.0 if a > b else 0.0),
    'SLE': _f(lambda a, b: 1.0 if a <= b else 0.0),
    'FSLT': ('f', 'u', lambda a, b: MASK if a < b else 0),
    'FSGE': ('f', 'u', lambda a, b: MASK if a >= b else 0),
    'FSEQ': ('f', 'u', lambda a, b: MASK if a == b else 0),
    'FSNE': ('f', 'u', lambda a, b: MASK if a != b else 0),
    'CMP': _f(lambda a, b, c: b if a < 0 else c),
    'UCMP': ('u', 'u', lambda a, b, c: b if a else c),
    'F2I': ('f', 'i', _f2i),
    'F2U': ('f', 'u', _f2u),
    'I2F': ('i', 'f', float),
    'U2F': ('u', 'f', float),
    'LDEXP': ('fi', 'f', lambda a, b: a * 2.0 ** b),
    'UADD': _u(lambda a, b: a + b),
    'UMUL': _u(lambda a, b: a * b),
    'UMAD': _u(lambda a, b, c: a * b + c),
    'UDIV': _u(lambda a, b: a // b if b else MASK),
    'UMOD': _u(lambda a, b: a % b if b else MASK),
    'IDIV': _i(_sdiv),
    'MOD': _i(_smod),
    'IMUL_HI': _i(lambda a, b: (a * b) >> 32),
    'UMUL_HI': _u(lambda a, b: (a * b) >> 32),
    'INEG': _i(lambda a: -a),
    'IABS': _i(abs),
    'ISSG': _i(lambda a: (a > 0) - (a < 0)),
    'IMAX': _i(max),
    'IMIN': _i(min),
    'UMAX': _u(max),
    'UMIN': _u(min),
    'ISLT': ('i', 'u', lambda a, b: MASK if a < b else 0),
    'ISGE': ('i', 'u', lambda a, b: MASK if a >= b else 0),
    'USLT': _u(lambda a, b: MASK if a < b else 0),
    'USGE': _u(lambda a, b: MASK if a >= b else 0),
    'USEQ': _u(lambda a, b: MASK if a == b else 0),
    'USNE': _u(lambda a, b: MASK if a != b else 0),
    'NOT': _u(lambda a: ~a),
    'AND': _u(lambda a, b: a & b),
    'OR': _u(lambda a, b: a | b),
    'XOR': _u(lambda a, b: a ^ b),
    'SHL': _u(lambda a, b: a << (b & 31)),
    'ISHR': ('iu', 'i', lambda a, b: a >> (b & 31)),
    'USHR': _u(lambda a, b: a >> (b & 31)),
    'IBFE': ('uu', 'i', _ibfe),
    'UBFE': _u(_ubfe),
    'BFI': _u(_bfi),
    'BREV': _u(_brev),
    'POPC': _u(lambda a: bin(a).count('1')),
    'LSB': ('u', 'i', _lsb),
    'IMSB': ('u', 'i', _imsb),
    'UMSB': ('u', 'i', _umsb),
    'ARL': ('f', 'i', lambda a: math.floor(a)),
    'UARL': ('i', 'i', lambda a: a),
}

# Scalar opcodes: result from the .x of each (swizzled) source, replicated.
SCALAR = {
    'RCP': lambda a: 1.0 / a,
    'RSQ': lambda a: 1.0 / math.sqrt(abs(a)),
    'SQRT': lambda a: math.sqrt(a),
    'EX2': lambda a: 2.0 ** a,
    'LG2': _log2,
    'POW': lambda a, b: a ** b,
    'SIN': math.sin,
    'COS': math.cos,
}


def _dec(bits, t):
    if t == 'f':
        return bitsf(bits)
    if t == 'i':
        return s32(bits)
    return bits & MASK


def _enc(v, t):
    if t == 'f':
        return fbits(f32(v))
    return u32(int(v))


class Program:
    """Parsed instruction list of one generated shader."""

    def __init__(self, lines):
        self.ins = []
        for text in lines:
            text = text.strip()
            m = re.match(r'^(\w+?)(_SAT)?(?: (.*?))?(?: :\d+)?$', text)
            op, sat, rest = m.group(1), bool(m.group(2)), m.group(3) or ''
            args = [a.strip() for a in split_args(rest)] if rest else []
            self.ins.append((op, sat, args))
        self._match_blocks()

    def _match_blocks(self):
        self.jump = {}
        stack = []
        for pc, (op, _, _) in enumerate(self.ins):
            if op in ('IF', 'UIF', 'BGNLOOP'):
                stack.append([pc])
            elif op == 'ELSE':
                stack[-1].append(pc)
            elif op == 'ENDIF':
                blk = stack.pop()
                if len(blk) == 2:
                    self.jump[blk[0]] = blk[1] + 1  # false: past ELSE
                    self.jump[blk[1]] = pc + 1      # ELSE reached: skip to ENDIF
                else:
                    self.jump[blk[0]] = pc + 1
            elif op == 'ENDLOOP':
                blk = stack.pop()
                self.jump[pc] = blk[0] + 1
                self.jump[blk[0]] = pc + 1
        self.loop_of = {}
        stack = []
        for pc, (op, _, _) in enumerate(self.ins):
            if op == 'BGNLOOP':
                stack.append(pc)
            elif op == 'ENDLOOP':
                stack.pop()
            elif op in ('BRK', 'CONT'):
                self.loop_of[pc] = stack[-1]


def split_args(rest):
    out, depth, cur = [], 0, ''
    for ch in rest:
        if ch == '[' or ch == '(':
            depth += 1
        elif ch == ']' or ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return out


class Machine:
    def __init__(self, prog, inputs, consts=None, imms=None, texture=None, budget=1 << 16):
        self.p = prog
        self.pc = 0
        self.iters = 0
        self.quad = None
        self.dd_result = None
        # Optional perturbation of every float result, used to check that a
        # generated long shader is insensitive to rounding differences.
        self.noise = None
        self.regs = {'IN': {i: list(v) for i, v in inputs.items()},
                     'CONST': {i: list(v) for i, v in (consts or {}).items()},
                     'IMM': {i: list(v) for i, v in (imms or {}).items()},
                     'TEMP': {}, 'OUT': {}, 'ADDR': {}}
        self.texture = texture
        self.budget = budget

    def reg(self, file, index):
        return self.regs[file].setdefault(index, [0, 0, 0, 0])

    def _index(self, o):
        idx = o.index
        if o.ind is not None:
            idx += s32(self.reg('ADDR', o.ind[0])[o.ind[1]])
        return idx

    def fetch(self, text, t):
        o = parse_src(text)
        r = self.reg(o.file, self._index(o))
        out = []
        for c in o.swz:
            v = _dec(r[c], t if t != 'x' else 'u')
            if t == 'f':
                if o.abs:
                    v = abs(v)
                if o.neg:
                    v = -v
            elif t in 'iu' and (o.abs or o.neg):
                v = s32(v)
                if o.abs:
                    v = abs(v)
                if o.neg:
                    v = -v
            out.append(v)
        return out

    def store(self, text, vals, t, sat):
        o = parse_dst(text)
        r = self.reg(o.file, self._index(o))
        for c in o.mask:
            v = vals[c]
            if sat and t == 'f':
                v = min(1.0, max(0.0, v))
            if t == 'x':
                r[c] = v & MASK
            else:
                if t == 'f' and self.noise:
                    v = self.noise(v)
                r[c] = _enc(v, t)

    def run(self):
        self.pc = 0
        self.iters = 0
        while self.step():
            pass
        return self.regs['OUT']

    def step(self):
        """Execute one instruction; False once the shader has ended."""
        pc = self.pc
        if pc >= len(self.p.ins):
            return False
        if True:
            op, sat, a = self.p.ins[pc]
            nxt = pc + 1
            if op == 'END' or op == 'RET':
                return False
            elif op in ('DDX', 'DDY', 'DDX_FINE', 'DDY_FINE'):
                # GL convention: d/dx = right - left, d/dy = upper - lower,
                # from the quad peers run in lockstep (quad = [bl, br, tl, tr]).
                if self.dd_result is not None:
                    # Precomputed by run_quad before any quad member wrote.
                    self.store(a[0], self.dd_result, 'f', sat)
                    self.dd_result = None
                    self.pc = nxt
                    return True
                q = self.quad
                me = q.index(self)
                if op.startswith('DDX'):
                    lo, hi = q[me & 2], q[(me & 2) + 1]
                else:
                    lo, hi = q[me & 1], q[(me & 1) + 2]
                va, vb = lo.fetch(a[1], 'f'), hi.fetch(a[1], 'f')
                self.store(a[0], [y - x for x, y in zip(va, vb)], 'f', sat)
            elif op in ('IF', 'UIF'):
                v = self.fetch(a[0], 'f' if op == 'IF' else 'u')[0]
                if not v:
                    nxt = self.p.jump[pc]
            elif op == 'ELSE':
                nxt = self.p.jump[pc]
            elif op in ('ENDIF', 'BGNLOOP', 'NOP'):
                pass
            elif op == 'ENDLOOP':
                self.iters += 1
                if self.iters > self.budget:
                    raise RuntimeError('loop budget exceeded')
                nxt = self.p.jump[pc]
            elif op == 'BRK':
                nxt = self.p.jump[self.p.loop_of[pc]]
            elif op == 'CONT':
                # Continue at the loop's ENDLOOP, which counts the iteration.
                nxt = self.p.jump[self.p.loop_of[pc]] - 1
            elif op == 'KILL':
                raise Killed()
            elif op == 'KILL_IF':
                if any(v < 0 for v in self.fetch(a[0], 'f')):
                    raise Killed()
            elif op in SCALAR:
                srcs = [self.fetch(s, 'f')[0] for s in a[1:]]
                v = SCALAR[op](*srcs)
                self.store(a[0], [v] * 4, 'f', sat)
            elif op in ('DP2', 'DP3', 'DP4', 'DPH'):
                x, y = self.fetch(a[1], 'f'), self.fetch(a[2], 'f')
                k = {'DP2': 2, 'DP3': 3, 'DP4': 4, 'DPH': 3}[op]
                v = sum(f32(x[i] * y[i]) for i in range(k))
                if op == 'DPH':
                    v += y[3]
                self.store(a[0], [v] * 4, 'f', sat)
            elif op == 'EXP':
                s = self.fetch(a[1], 'f')[0]
                fl = math.floor(s)
                self.store(a[0], [2.0 ** fl, s - fl, 2.0 ** s, 1.0], 'f', sat)
            elif op == 'LOG':
                s = abs(self.fetch(a[1], 'f')[0])
                e = math.floor(math.log2(s))
                self.store(a[0], [float(e), s / 2.0 ** e, math.log2(s), 1.0], 'f', sat)
            elif op == 'LIT':
                s = self.fetch(a[1], 'f')
                y = max(s[0], 0.0)
                z = 0.0
                if s[0] > 0:
                    e = min(128.0, max(-128.0, s[3]))
                    z = max(s[1], 0.0) ** e
                self.store(a[0], [1.0, y, z, 1.0], 'f', sat)
            elif op == 'DST':
                x, y = self.fetch(a[1], 'f'), self.fetch(a[2], 'f')
                self.store(a[0], [1.0, x[1] * y[1], x[2], y[3]], 'f', sat)
            elif op in ('ARL', 'UARL'):
                ti, to, fn = COMPONENT[op]
                s = self.fetch(a[1], ti)
                self.store(a[0], [fn(v) for v in s], to, False)
            elif op in COMPONENT:
                ti, to, fn = COMPONENT[op]
                if op == 'MOV' and (sat or '-' in a[1] or '|' in a[1]):
                    ti, to = 'f', 'f'
                srcs = []
                for k, s in enumerate(a[1:]):
                    srcs.append(self.fetch(s, ti[min(k, len(ti) - 1)]))
                vals = [fn(*[s[c] for s in srcs]) for c in range(4)]
                self.store(a[0], vals, to, sat)
            else:
                raise NotImplementedError(op)
            self.pc = nxt
            return True


def run_quad(machines):
    """Run the four pixels of a quad (bl, br, tl, tr) in lockstep, for DDX/DDY.
    The tests that use derivatives keep the quad on one control-flow path."""
    for m in machines:
        m.quad = machines
        m.pc = 0
    live = [True] * 4
    while any(live):
        pcs = set(m.pc for m, l in zip(machines, live) if l)
        if len(pcs) != 1:
            raise RuntimeError('quad diverged; derivatives undefined')
        pc = pcs.pop()
        if pc < len(machines[0].p.ins) and machines[0].p.ins[pc][0].startswith('DD'):
            op, _, a = machines[0].p.ins[pc]
            res = []
            for me, m in enumerate(machines):
                if op.startswith('DDX'):
                    lo, hi = machines[me & 2], machines[(me & 2) + 1]
                else:
                    lo, hi = machines[me & 1], machines[(me & 1) + 2]
                va, vb = lo.fetch(a[1], 'f'), hi.fetch(a[1], 'f')
                res.append([y - x for x, y in zip(va, vb)])
            for m, r in zip(machines, res):
                m.dd_result = r
        for i, m in enumerate(machines):
            if live[i]:
                live[i] = m.step()
    return [m.regs['OUT'] for m in machines]
