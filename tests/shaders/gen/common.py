"""Helpers shared by the shader-test generators: a TGSI text builder that
numbers instructions and fills IF/ELSE labels the way tgsi_dump does, and
a pipeline model (vertex shader at the pixel centre, semantic matching,
fragment shader) giving the colour GL would write to a UNORM8 framebuffer.

Only valid while every vertex-shader output is affine in the position: then
evaluating the vertex shader at the pixel centre equals interpolating it.
"""
import math
import os
import re

from tgsi_model import Killed, Machine, Program, bitsf, fbits, f32, u32, run_quad

WIDTH = HEIGHT = 250
OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def fmt_float(v):
    v = f32(v)
    if v == int(v) and abs(v) < 1e7:
        return '%.4f' % v
    s = repr(v)
    # Shortest text that reads back as the same float32.
    for digits in range(4, 10):
        t = '%.*f' % (digits, v)
        if f32(float(t)) == v:
            return t
    return s


class Tgsi:
    def __init__(self, proc):
        self.proc = proc
        self.props = []
        self.decls = []
        self.imms = []  # (type, values)
        self.code = []

    def prop(self, text):
        self.props.append(text)

    def decl(self, text):
        self.decls.append(text)

    def imm(self, vals, typ='FLT32'):
        vals = list(vals) + [0] * (4 - len(vals))
        key = (typ, tuple(vals))
        for i, k in enumerate(self.imms):
            if k == key:
                return 'IMM[%d]' % i
        self.imms.append(key)
        return 'IMM[%d]' % (len(self.imms) - 1)

    def __call__(self, line):
        self.code.append(line)

    def imm_bits(self):
        out = {}
        for i, (typ, vals) in enumerate(self.imms):
            if typ == 'FLT32':
                out[i] = [fbits(f32(float(v))) for v in vals]
            else:
                out[i] = [u32(int(v)) for v in vals]
        return out

    def program(self):
        return Program(self.code + (['END'] if not self.code or self.code[-1] != 'END' else []))

    def text(self):
        code = self.code + (['END'] if not self.code or self.code[-1] != 'END' else [])
        lines = [self.proc]
        lines += ['PROPERTY ' + p for p in self.props]
        lines += ['DCL ' + d for d in self.decls]
        for i, (typ, vals) in enumerate(self.imms):
            if typ == 'FLT32':
                body = ', '.join('%10s' % fmt_float(float(v)) for v in vals)
            else:
                body = ', '.join(str(int(v)) for v in vals)
            lines.append('IMM[%d] %s {%s}' % (i, typ, body))
        # Labels as tgsi_dump prints them: IF/UIF point at their ELSE (or
        # ENDIF), ELSE at its ENDIF, BGNLOOP/ENDLOOP at each other.
        labels = {}
        stack = []
        for pc, line in enumerate(code):
            op = line.split()[0]
            if op in ('IF', 'UIF', 'BGNLOOP'):
                stack.append([pc])
            elif op == 'ELSE':
                labels[stack[-1][-1]] = pc
                stack[-1].append(pc)
            elif op == 'ENDIF':
                labels[stack.pop()[-1]] = pc
            elif op == 'ENDLOOP':
                b = stack.pop()[0]
                labels[b] = pc
                labels[pc] = b
        depth = 0
        for pc, line in enumerate(code):
            op = line.split()[0]
            if op in ('ELSE', 'ENDIF', 'ENDLOOP'):
                depth -= 1
            text = line
            if pc in labels:
                text += ' :%d' % labels[pc]
            lines.append('%3d: %s%s' % (pc, '  ' * depth, text))
            if op in ('IF', 'UIF', 'BGNLOOP', 'ELSE'):
                depth += 1
        return '\n'.join(lines) + '\n'


def decl_semantics(sh, file):
    """{index: (semantic, sem_index)} from DCL lines of one file."""
    out = {}
    for d in sh.decls:
        m = re.match(r'^%s\[(\d+)(?:\.\.(\d+))?\](?:\.\w+)?(?:, (\w+)(?:\[(\d+)\])?)?' % file, d)
        if m:
            first = int(m.group(1))
            out[first] = (m.group(3), int(m.group(4) or 0))
    return out


def pixel_ndc(px, py):
    return ((px + 0.5) * 2.0 / WIDTH - 1.0, (py + 0.5) * 2.0 / HEIGHT - 1.0)


class Pipeline:
    """A TGSI vertex + fragment shader pair drawn as `draw rect -1 -1 2 2`."""

    def __init__(self, vs, fs, consts=None, color=None, texcoords=None,
                 clear=(0.0, 0.0, 0.0, 0.0), fs_hook=None):
        self.vs, self.fs = vs, fs
        self.consts = consts or {}
        self.color = color or [0.0, 0.0, 0.0, 1.0]
        self.texcoords = texcoords or {}
        self.clear = clear
        self.fs_hook = fs_hook
        self.noise = None

    def _cbits(self):
        return {i: [fbits(f32(float(c))) for c in v] for i, v in self.consts.items()}

    def shade(self, px, py):
        prog = self.fs.program()
        if any(op.startswith('DD') for op, _, _ in prog.ins):
            x0, y0 = px & ~1, py & ~1
            ms = [self._fs_machine(x0 + dx, y0 + dy) for dy in (0, 1) for dx in (0, 1)]
            outs = run_quad(ms)
            me = (py - y0) * 2 + (px - x0)
            col = [bitsf(b) for b in outs[me].get(0, [0, 0, 0, 0])]
            return [min(1.0, max(0.0, c)) for c in col]
        try:
            out = self._fs_machine(px, py).run()
        except Killed:
            return list(self.clear)
        col = [bitsf(b) for b in out.get(0, [0, 0, 0, 0])]
        return [min(1.0, max(0.0, c)) for c in col]

    def _run_vs(self, nx, ny):
        vin = {0: [fbits(f32(nx)), fbits(f32(ny)), 0, fbits(1.0)],
               1: [fbits(f32(c)) for c in self.color]}
        for n, tc in self.texcoords.items():
            vin[2 + n] = [fbits(f32(c)) for c in tc]
        vm = Machine(self.vs.program(), vin, self._cbits(), self.vs.imm_bits())
        vm.noise = self.noise
        return vm.run()

    def _corner_interp(self, px, py):
        """Vertex outputs of the four corners interpolated like the runner's two
        triangles (bl, br, tl) and (tl, br, tr), for non-affine vertex shaders
        (w must stay 1)."""
        corners = [self._run_vs(x, y) for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1))]
        u, v = (px + 0.5) / WIDTH, (py + 0.5) / HEIGHT
        if abs(u + v - 1.0) < 0.02:
            raise ValueError('probe too close to the diagonal')
        out = {}
        for idx in corners[0]:
            vals = []
            for c in range(4):
                bl, br, tl, tr = (bitsf(k[idx][c]) for k in corners)
                if u + v <= 1.0:
                    f = bl + u * (br - bl) + v * (tl - bl)
                else:
                    f = tr + (1 - u) * (tl - tr) + (1 - v) * (br - tr)
                vals.append(fbits(f32(f)))
            out[idx] = vals
        return out

    def _fs_machine(self, px, py):
        if getattr(self, 'corner_interp', False):
            vout = self._corner_interp(px, py)
        else:
            vout = self._run_vs(*pixel_ndc(px, py))
        by_sem = {}
        for idx, sem in decl_semantics(self.vs, 'OUT').items():
            by_sem[sem] = vout.get(idx, [0, 0, 0, 0])
        fin = {}
        for idx, sem in decl_semantics(self.fs, 'IN').items():
            if sem[0] == 'POSITION':
                fin[idx] = [fbits(px + 0.5), fbits(py + 0.5), fbits(0.5), fbits(1.0)]
            elif sem[0] == 'FACE':
                fin[idx] = [fbits(1.0), 0, 0, fbits(1.0)]
            else:
                fin[idx] = by_sem[sem]
        fm = Machine(self.fs.program(), fin, self._cbits(), self.fs.imm_bits())
        fm.noise = self.noise
        return fm


def fmt_val(v):
    s = '%.4f' % v
    s = s.rstrip('0').rstrip('.') if '.' in s else s
    return s if s not in ('-0', '') else '0'


def probe_lines(pipe, points, name=''):
    """`probe rgba` lines for the given pixels; 'all' probes one uniform colour."""
    lines = []
    if points == 'all':
        samples = [(5, 5), (244, 3), (125, 125), (7, 240), (240, 240), (60, 190)]
        cols = [pipe.shade(x, y) for x, y in samples]
        for c in cols[1:]:
            if max(abs(a - b) for a, b in zip(c, cols[0])) > 1e-4:
                raise ValueError('%s: colour not uniform: %s vs %s' % (name, c, cols[0]))
        lines.append('probe all rgba ' + ' '.join(fmt_val(v) for v in cols[0]))
        return lines, [cols[0]]
    cols = []
    for (x, y) in points:
        c = pipe.shade(x, y)
        cols.append(c)
        lines.append('probe rgba %d %d %s' % (x, y, ' '.join(fmt_val(v) for v in c)))
    return lines, cols


def write_test(name, header_comment, sections, commands):
    path = os.path.join(OUT_DIR, name + '.shader_test')
    out = []
    for line in header_comment.strip().split('\n'):
        out.append('# ' + line if line else '#')
    out.append('')
    for title, body in sections:
        out.append('[%s]' % title)
        out.append(body.rstrip('\n'))
        out.append('')
    out.append('[test]')
    out += commands
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')
    return name + '.shader_test'


def tgsi_requirements(shaders):
    """[require] lines in piglit terms, so a target can skip what its GL level
    lacks: integer opcodes need GLSL 1.30, rectangle and shadow samplers
    their extensions."""
    from tgsi_model import COMPONENT
    int_ops = {op for op, (ti, to, _) in COMPONENT.items()
               if op not in ('ARL', 'MOV') and ('i' in ti + to or 'u' in ti + to)}
    int_ops |= {'UIF', 'TXF', 'TXQ', 'TXF_LZ', 'UARL'}
    ops = set()
    text = ''
    for sh in shaders:
        text += sh.text()
        ops |= {line.split()[0].split('_SAT')[0] for line in sh.code}
    req = ['GLSL >= 1.30' if ops & int_ops else 'GLSL >= 1.10']
    if 'RECT' in text:
        req.append('GL_ARB_texture_rectangle')
    if 'SHADOW' in text:
        req.append('GL_ARB_shadow')
    return '\n'.join(req)


def std_vs(extra=None):
    """Position through, GENERIC[0] = (x*0.5+0.5, y*0.5+0.5, 0, 1): the pixel's
    place in the window as 0..1, an affine varying every test can branch on."""
    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    k = vs.imm([0.5, 0.0, 1.0, 0.0])
    vs('MOV OUT[0], IN[0]')
    vs('MAD OUT[1], IN[0], %s.xxyy, %s.xxyz' % (k, k))
    return vs


def tgsi_test(name, comment, vs, fs, points='all', consts=None, pre=None, clear=None,
              color=None, texcoords=None, corner_interp=False):
    clear = clear or (0.0, 0.0, 0.0, 0.0)
    pipe = Pipeline(vs, fs, consts=consts, clear=clear, color=color, texcoords=texcoords)
    pipe.corner_interp = corner_interp
    probes, cols = probe_lines(pipe, points, name)
    cmds = ['clear color %s' % ' '.join(fmt_val(c) for c in clear), 'clear']
    for i, v in sorted((consts or {}).items()):
        cmds.append('uniform vec4 %d %s' % (i, ' '.join(fmt_float(float(c)) for c in v)))
    if color:
        cmds.append('color %s' % ' '.join(fmt_val(c) for c in color))
    for n, tc in sorted((texcoords or {}).items()):
        cmds.append('texcoord %d (%s)' % (n, ', '.join(fmt_val(c) for c in tc)))
    cmds += pre or []
    cmds.append('draw rect -1 -1 2 2')
    cmds += probes
    return write_test(name, comment, [('require', tgsi_requirements([vs, fs])),
                                      ('vertex shader tgsi', vs.text()),
                                      ('fragment shader tgsi', fs.text())], cmds)


def auto_scale(vals):
    """Scale and bias (powers of two / multiples of 1/8) that map vals into
    [0.125, 0.875], so each result is a distinct, unclamped colour."""
    lo, hi = min(vals), max(vals)
    span = hi - lo
    scale = 1.0
    if span > 0:
        scale = 2.0 ** math.floor(math.log2(0.75 / span))
    bias = math.floor((0.125 - lo * scale) * 8.0) / 8.0
    if lo * scale + bias < 0.0:
        bias += 0.125
    return scale, bias
