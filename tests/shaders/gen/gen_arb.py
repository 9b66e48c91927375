"""ARB_vertex_program / ARB_fragment_program tests.  The programs are written
out here by hand; expected colours are worked out from the ARB specs'
definitions with the small Python expressions beside each test (the window is
250x250; `draw rect tex -1 -1 2 2 0 0 1 1` gives texcoord 0 = (s, t, 0, 1)
with s = (x + 0.5) / 250 at pixel x)."""
import math

from common import write_test, fmt_val

W = 250.0


def s_of(p):
    return (p + 0.5) / W


def probe(x, y, col):
    return 'probe rgba %d %d %s' % (x, y, ' '.join(fmt_val(c) for c in col))


def probe_all(col):
    return 'probe all rgba ' + ' '.join(fmt_val(c) for c in col)


def test(name, comment, vp, fp, cmds, require=()):
    sections = [('require', '\n'.join(['GL >= 1.3'] + list(require)))]
    if vp:
        sections.append(('vertex program', vp.strip() + '\n'))
    if fp:
        sections.append(('fragment program', fp.strip() + '\n'))
    return write_test(name, comment, sections, ['clear color 0.2 0.4 0.6 0.8', 'clear'] + cmds)


VP_REQ = ('GL_ARB_vertex_program',)
FP_REQ = ('GL_ARB_fragment_program',)
BOTH = VP_REQ + FP_REQ

FP_COLOR = '''!!ARBfp1.0
MOV result.color, fragment.color;
END'''


def clamp01(v):
    return min(1.0, max(0.0, v))


def generate():
    files = []

    vp = '''!!ARBvp1.0
PARAM mvp[4] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
MAD result.color, vertex.position, {0.004, 0.004, 0.5, 0.0}, {0.0, 0.0, 0.25, 1.0};
END'''
    pts = [(50, 200), (3, 3), (240, 120), (125, 10)]
    files.append(test('arb-vp-mvp-ortho', 'state.matrix.mvp with `ortho` maps window-pixel vertex\n'
                      'positions to clip space; the colour is the position / 250.', vp, FP_COLOR,
                      ['ortho', 'draw rect 0 0 250 250'] +
                      [probe(x, y, (s_of(x), s_of(y), 0.25, 1.0)) for x, y in pts], BOTH))

    vp = '''!!ARBvp1.0
DP4 result.position.x, state.matrix.mvp.row[0], vertex.position;
DP4 result.position.y, state.matrix.mvp.row[1], vertex.position;
DP4 result.position.z, state.matrix.mvp.row[2], vertex.position;
DP4 result.position.w, state.matrix.mvp.row[3], vertex.position;
MOV result.color, {0.25, 0.5, 0.75, 1.0};
END'''
    files.append(test('arb-vp-mvp-rows', 'state.matrix.mvp.row[n] bindings with `ortho`: a 100x50\n'
                      'rectangle at (20, 30) in window pixels; outside keeps the clear colour.',
                      vp, FP_COLOR,
                      ['ortho', 'draw rect 20 30 100 50',
                       probe(20, 30, (0.25, 0.5, 0.75, 1)), probe(119, 79, (0.25, 0.5, 0.75, 1)),
                       probe(70, 55, (0.25, 0.5, 0.75, 1)),
                       probe(19, 50, (0.2, 0.4, 0.6, 0.8)), probe(120, 50, (0.2, 0.4, 0.6, 0.8)),
                       probe(50, 29, (0.2, 0.4, 0.6, 0.8)), probe(50, 80, (0.2, 0.4, 0.6, 0.8))],
                      BOTH))

    vp = '''!!ARBvp1.0
OPTION ARB_position_invariant;
MOV result.color, {0.75, 0.5, 0.25, 1.0};
END'''
    files.append(test('arb-vp-position-invariant', 'OPTION ARB_position_invariant: the fixed-function transform\n'
                      '(here `ortho`) positions a 60x200 rectangle at (150, 20).', vp, FP_COLOR,
                      ['ortho', 'draw rect 150 20 60 200',
                       probe(150, 20, (0.75, 0.5, 0.25, 1)), probe(209, 219, (0.75, 0.5, 0.25, 1)),
                       probe(149, 100, (0.2, 0.4, 0.6, 0.8)), probe(210, 100, (0.2, 0.4, 0.6, 0.8)),
                       probe(180, 220, (0.2, 0.4, 0.6, 0.8)), probe(180, 19, (0.2, 0.4, 0.6, 0.8))],
                      BOTH))

    vp = '''!!ARBvp1.0
PARAM e0 = program.env[0];
PARAM l1 = program.local[1];
MOV result.position, vertex.position;
MAD result.color, e0, l1, program.env[2];
END'''
    e0, l1, e2 = (0.5, 0.25, 1.0, 0.5), (0.5, 2.0, 0.25, 1.0), (0.125, 0.25, 0.5, 0.25)
    files.append(test('arb-vp-env-local', 'program.env and program.local parameters set with `parameter`:\n'
                      'color = env[0] * local[1] + env[2].', vp, FP_COLOR,
                      ['parameter env_vp 0 (0.5, 0.25, 1.0, 0.5)',
                       'parameter local_vp 1 (0.5, 2.0, 0.25, 1.0)',
                       'parameter env_vp 2 (0.125, 0.25, 0.5, 0.25)',
                       'draw rect -1 -1 2 2',
                       probe_all([a * b + c for a, b, c in zip(e0, l1, e2)])], BOTH))

    vp = '''!!ARBvp1.0
PARAM c = {0.25, 0.75, 0.5, 0.125};
TEMP a, b;
MOV result.position, vertex.position;
SWZ a, c, 0, 1, -x, y;
SWZ b, -c, w, -z, -1, x;
ADD a, a, b;
MAD result.color, a, 0.25, 0.5;
END'''
    c = (0.25, 0.75, 0.5, 0.125)
    a = (0.0, 1.0, -c[0], c[1])
    b = (-c[3], c[2], -1.0, -c[0])   # SWZ of -c: w -> -c.w, -z -> c.z, -1, x -> -c.x
    files.append(test('arb-vp-swz', 'SWZ with 0/1 constants and per-component negation, also on a\n'
                      'negated source: (0, 1, -x, y) + (-c).(w, -z, -1, x).', vp, FP_COLOR,
                      ['draw rect -1 -1 2 2', probe_all([(p + q) * 0.25 + 0.5 for p, q in zip(a, b)])],
                      BOTH))

    vp = '''!!ARBvp1.0
TEMP r;
MOV result.position, vertex.position;
XPD r.xyz, {0.5, 0.25, 1.0, 0.0}, {0.25, 1.0, 0.5, 0.0};
MOV r.w, 1.0;
MAD result.color, r, {0.5, 0.5, 0.5, 0.0}, {0.5, 0.5, 0.5, 1.0};
END'''
    u, v = (0.5, 0.25, 1.0), (0.25, 1.0, 0.5)
    x = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    files.append(test('arb-vp-xpd', 'XPD cross product (w is undefined, so it is masked off).', vp, FP_COLOR,
                      ['draw rect -1 -1 2 2', probe_all([k * 0.5 + 0.5 for k in x] + [1.0])], BOTH))

    vp = '''!!ARBvp1.0
TEMP l1, l2;
MOV result.position, vertex.position;
LIT l1, {0.5, 0.5, 0.0, 2.0};
LIT l2, {-0.5, 0.75, 0.0, 2.0};
MUL l1, l1, 0.5;
MAD result.color, l2, 0.25, l1;
END'''
    l1 = (1.0, 0.5, 0.5 ** 2, 1.0)
    l2 = (1.0, 0.0, 0.0, 1.0)
    files.append(test('arb-vp-lit', 'LIT with positive and negative diffuse terms: 0.5 lit1 + 0.25 lit2.',
                      vp, FP_COLOR, ['draw rect -1 -1 2 2',
                                     probe_all([p * 0.5 + q * 0.25 for p, q in zip(l1, l2)])], BOTH))

    vp = '''!!ARBvp1.0
MOV result.position, vertex.position;
DST result.color, {9.0, 2.0, 0.75, 9.0}, {9.0, 0.25, 9.0, 0.5};
END'''
    files.append(test('arb-vp-dst', 'DST: (1, a.y * b.y, a.z, b.w).', vp, FP_COLOR,
                      ['draw rect -1 -1 2 2', probe_all((1.0, 0.5, 0.75, 0.5))], BOTH))

    vp = '''!!ARBvp1.0
PARAM x = 2.75;
TEMP e;
MOV result.position, vertex.position;
EXP e, x.x;
MUL result.color, e, {0.125, 1.0, 0.125, 0.5};
END'''
    files.append(test('arb-vp-exp', 'EXP of 2.75: (2^2, 0.75, ~2^2.75, 1) scaled by (1/8, 1, 1/8, 1/2).',
                      vp, FP_COLOR, ['draw rect -1 -1 2 2',
                                     probe_all((4 / 8, 0.75, 2 ** 2.75 / 8, 0.5))], BOTH))

    vp = '''!!ARBvp1.0
PARAM x = {-12.0, 0.0, 0.0, 0.0};
TEMP l;
MOV result.position, vertex.position;
LOG l, x.x;
MUL result.color, l, {0.25, 0.5, 0.25, 0.5};
END'''
    files.append(test('arb-vp-log', 'LOG of |-12|: (3, 1.5, ~log2 12, 1) scaled by (1/4, 1/2, 1/4, 1/2).',
                      vp, FP_COLOR, ['draw rect -1 -1 2 2',
                                     probe_all((0.75, 0.75, math.log2(12) / 4, 0.5))], BOTH))

    rows = ['{%s}' % ', '.join(fmt_val(v) for v in (i * 0.125 + 0.0625, 1 - i * 0.125, 0.5, 1.0))
            for i in range(6)]
    vp = '''!!ARBvp1.0
PARAM arr[6] = { %s };
ADDRESS A0;
MOV result.position, vertex.position;
ARL A0.x, program.env[0].x;
MOV result.color, arr[A0.x + 1];
ARL A0.x, program.env[0].y;
MOV result.texcoord[0], arr[A0.x + 2];
END''' % ',\n                 '.join(rows)
    fp = '''!!ARBfp1.0
MOV result.color.x, fragment.color.x;
MOV result.color.y, fragment.texcoord[0].x;
MOV result.color.z, fragment.color.y;
MOV result.color.w, 1.0;
END'''
    files.append(test('arb-vp-arl', 'ARL (floor) into A0.x indexing a PARAM array: env[0].x = 2.7\n'
                      'reads arr[3]; env[0].y = -0.5 floors to -1 and reads arr[1].', vp, fp,
                      ['parameter env_vp 0 (2.7, -0.5, 0, 0)', 'draw rect -1 -1 2 2',
                       probe_all((3 * 0.125 + 0.0625, 1 * 0.125 + 0.0625, 1 - 3 * 0.125, 1.0))], BOTH))

    vp = '''!!ARBvp1.0
MOV result.position, vertex.position;
MOV result.color, vertex.color;
MAD result.texcoord[0], vertex.texcoord[0], 0.5, 0.25;
END'''
    fp = '''!!ARBfp1.0
ADD result.color, fragment.color, fragment.texcoord[0];
END'''
    files.append(test('arb-vp-attribs', 'vertex.color and vertex.texcoord[0] from the `color` and\n'
                      '`texcoord 0` commands.', vp, fp,
                      ['color 0.25 0.125 0.5 0.25', 'texcoord 0 (0.5, 1.0, 0.0, 0.75)', 'draw rect -1 -1 2 2',
                       probe_all((0.25 + 0.5, 0.125 + 0.75, 0.5 + 0.25, 0.25 + 0.625))], BOTH))

    vp = '''!!ARBvp1.0
MOV result.position, vertex.position;
MAD result.texcoord[3], vertex.position, {0.5, 0.5, 0, 0}, {0.5, 0.5, 0.25, 1};
MOV result.color.secondary, {0.125, 0.25, 0.375, 0.5};
MOV result.color, {0.5, 0.25, 0.125, 1.0};
END'''
    fp = '''!!ARBfp1.0
TEMP t;
MUL t, fragment.texcoord[3], 0.5;
ADD t.xy, t, fragment.color.secondary;
MOV t.z, fragment.color.primary.x;
MOV result.color, t;
END'''
    pts = [(10, 10), (200, 40), (60, 230), (125, 125)]
    files.append(test('arb-vp-fp-varyings', 'result.texcoord[3], result.color.secondary and\n'
                      'result.color reach the fragment program under their own names.', vp, fp,
                      ['draw rect -1 -1 2 2'] +
                      [probe(x, y, (s_of(x) * 0.5 + 0.125, s_of(y) * 0.5 + 0.25, 0.5, 0.5))
                       for x, y in pts], BOTH))

    # Fragment programs over the fixed-function vertex stage.
    fp = '''!!ARBfp1.0
MUL result.color, fragment.color, {2.0, 1.0, 0.5, 1.0};
END'''
    files.append(test('arb-fp-color', 'Fragment program alone: fragment.color is the current `color`.',
                      None, fp, ['color 0.25 0.5 0.75 1', 'draw rect -1 -1 2 2',
                                 probe_all((0.5, 0.5, 0.375, 1.0))], FP_REQ))

    quads = [((60, 60), (1, 0, 0, 1)), ((190, 60), (0, 1, 0, 1)), ((60, 190), (0, 0, 1, 1)),
             ((190, 190), (1, 1, 1, 1))]
    fp = '''!!ARBfp1.0
TEX result.color, fragment.texcoord[0], texture[0], 2D;
END'''
    files.append(test('arb-fp-tex', 'TEX 2D of the rgbw texture with texcoords from `draw rect tex`.',
                      None, fp, ['texture rgbw 0 (8, 8)', 'draw rect tex -1 -1 2 2 0 0 1 1'] +
                      [probe(x, y, c) for (x, y), c in quads], FP_REQ))

    fp = '''!!ARBfp1.0
TEMP t;
MUL t, fragment.texcoord[0], {2.0, 2.0, 0.0, 2.0};
TXP result.color, t, texture[0], 2D;
END'''
    files.append(test('arb-fp-txp', 'TXP divides by q: (2s, 2t, 0, 2) projects back to (s, t).',
                      None, fp, ['texture rgbw 0 (8, 8)', 'draw rect tex -1 -1 2 2 0 0 1 1'] +
                      [probe(x, y, c) for (x, y), c in quads], FP_REQ))

    fp = '''!!ARBfp1.0
TEMP t;
MOV t, fragment.texcoord[0];
MUL t.w, t.x, 4.0;
FLR t.w, t.w;
ADD t.w, t.w, 5.0;
TXB result.color, t, texture[0], 2D;
END'''
    files.append(test('arb-fp-txb', 'TXB on the miptree with bias 5 + floor(4 s): LOD -4.97 + bias\n'
                      'picks levels 0..3 (red, green, blue, white) in four bands.', None, fp,
                      ['texture miptree 0', 'draw rect tex -1 -1 2 2 0 0 1 1',
                       probe(30, 125, (1, 0, 0, 1)), probe(90, 20, (0, 1, 0, 1)),
                       probe(160, 230, (0, 0, 1, 1)), probe(220, 125, (1, 1, 1, 1))], FP_REQ))

    fp = '''!!ARBfp1.0
TEMP t;
SUB t, fragment.texcoord[0], {0.5, 0.25, 0.0, 0.0};
KIL t;
MOV result.color, {0.0, 1.0, 0.0, 1.0};
END'''
    kept, clear = (0, 1, 0, 1), (0.2, 0.4, 0.6, 0.8)
    files.append(test('arb-fp-kil', 'KIL discards where any component of (s - 0.5, t - 0.25, 0, 1)\n'
                      'is negative; discarded pixels keep the clear colour.', None, fp,
                      ['draw rect tex -1 -1 2 2 0 0 1 1',
                       probe(30, 30, clear), probe(30, 200, clear), probe(200, 30, clear),
                       probe(200, 200, kept), probe(130, 70, kept), probe(120, 200, clear)], FP_REQ))

    fp = '''!!ARBfp1.0
TEMP d;
SUB d, fragment.texcoord[0].xyxy, {0.5, 0.5, 0.25, 0.75};
CMP result.color, d, {0.25, 0.25, 0.25, 0.25}, {0.75, 0.75, 0.75, 0.75};
END'''

    def cmp_col(x, y):
        d = (s_of(x) - 0.5, s_of(y) - 0.5, s_of(x) - 0.25, s_of(y) - 0.75)
        return [0.25 if k < 0 else 0.75 for k in d]
    pts = [(20, 20), (100, 100), (150, 20), (20, 220), (240, 240), (100, 230)]
    files.append(test('arb-fp-cmp', 'CMP picks src1 where src0 < 0: four thresholds on (s, t).', None, fp,
                      ['draw rect tex -1 -1 2 2 0 0 1 1'] + [probe(x, y, cmp_col(x, y)) for x, y in pts],
                      FP_REQ))

    fp = '''!!ARBfp1.0
LRP result.color, fragment.texcoord[0].xxxy, {1.0, 0.0, 0.25, 1.0}, {0.0, 0.5, 1.0, 0.5};
END'''

    def lrp_col(x, y):
        w = (s_of(x),) * 3 + (s_of(y),)
        a, b = (1.0, 0.0, 0.25, 1.0), (0.0, 0.5, 1.0, 0.5)
        return [k * p + (1 - k) * q for k, p, q in zip(w, a, b)]
    pts = [(0, 0), (125, 60), (249, 249), (60, 180)]
    files.append(test('arb-fp-lrp', 'LRP with per-pixel weights (s, s, s, t).', None, fp,
                      ['draw rect tex -1 -1 2 2 0 0 1 1'] + [probe(x, y, lrp_col(x, y)) for x, y in pts],
                      FP_REQ))

    fp = '''!!ARBfp1.0
TEMP a, r;
MAD a, fragment.texcoord[0].x, 3.0, -1.0;
SCS r.xy, a.x;
MAD result.color.xy, r, 0.5, 0.5;
MOV result.color.zw, {0.0, 0.0, 0.25, 1.0};
END'''

    def scs_col(x):
        ang = s_of(x) * 3.0 - 1.0
        return (math.cos(ang) * 0.5 + 0.5, math.sin(ang) * 0.5 + 0.5, 0.25, 1.0)
    files.append(test('arb-fp-scs', 'SCS: (cos a, sin a) of a = 3 s - 1, shown as 0.5 v + 0.5.', None, fp,
                      ['draw rect tex -1 -1 2 2 0 0 1 1'] + [probe(x, 100, scs_col(x))
                                                             for x in (0, 60, 125, 190, 249)], FP_REQ))

    vp = '''!!ARBvp1.0
MOV result.position, vertex.position;
MAD result.fogcoord.x, vertex.position.x, 0.5, 0.5;
MOV result.color, vertex.color;
END'''
    fp = '''!!ARBfp1.0
OPTION ARB_fog_linear;
MOV result.color, fragment.color;
END'''

    def fog_col(x):
        f = clamp01((1.0 - s_of(x)) / (1.0 - 0.0))   # default fog start 0, end 1
        c = (0.8, 0.4, 1.0, 0.6)
        return [f * k for k in c[:3]] + [c[3]]      # default fog colour 0; alpha untouched
    files.append(test('arb-fp-fog-linear', 'OPTION ARB_fog_linear with GL default fog state (start 0,\n'
                      'end 1, colour 0): f = 1 - fogcoord, fogcoord = s from the vertex\n'
                      'program; rgb = f * colour, alpha unchanged.', vp, fp,
                      ['color 0.8 0.4 1.0 0.6', 'draw rect -1 -1 2 2'] +
                      [probe(x, 77, fog_col(x)) for x in (0, 50, 125, 200, 249)], BOTH))

    for opt, fn in (('exp', lambda c: math.exp(-1.0 * c)), ('exp2', lambda c: math.exp(-(1.0 * c) ** 2))):
        fp = '''!!ARBfp1.0
OPTION ARB_fog_%s;
MOV result.color, fragment.color;
END''' % opt

        def fcol(x, fn=fn):
            f = clamp01(fn(s_of(x) * 2.0))
            c = (0.8, 0.4, 1.0, 0.6)
            return [f * k for k in c[:3]] + [c[3]]
        vp2 = vp.replace('MAD result.fogcoord.x, vertex.position.x, 0.5, 0.5;',
                         'ADD result.fogcoord.x, vertex.position.x, 1.0;')
        files.append(test('arb-fp-fog-%s' % opt, 'OPTION ARB_fog_%s with GL default fog density 1 and colour 0:\n'
                          'fogcoord = 2 s from the vertex program, f = %s, rgb = f * colour.'
                          % (opt, 'exp(-c)' if opt == 'exp' else 'exp(-c^2)'), vp2, fp,
                          ['color 0.8 0.4 1.0 0.6', 'draw rect -1 -1 2 2'] +
                          [probe(x, 77, fcol(x)) for x in (0, 50, 125, 200, 249)], BOTH))

    fp = '''!!ARBfp1.0
PARAM half = 0.5;
TEMP a, b, r;
MOV a, {4.0, 0.25, 2.75, -1.5};
RSQ r.x, a.x;
POW r.y, a.y, half.x;
FRC r.z, a.z;
FLR b.x, a.w;
EX2 b.y, a.w;
LG2 b.z, a.x;
DP3 b.w, a, {0.25, 1.0, 0.0, 9.0};
MAD r.w, b.x, 0.125, 0.5;
ADD r.x, r.x, b.y;
ADD r.y, r.y, b.w;
MUL r.z, r.z, b.z;
MUL result.color, r, {0.5, 0.5, 0.5, 1.0};
END'''
    a = (4.0, 0.25, 2.75, -1.5)
    r = [1 / math.sqrt(a[0]) + 2 ** a[3], a[1] ** 0.5 + (a[0] * 0.25 + a[1]), (a[2] % 1.0) * math.log2(a[0]),
         math.floor(a[3]) * 0.125 + 0.5]
    files.append(test('arb-fp-alu', 'Fragment-program RSQ, POW, FRC, FLR, EX2, LG2, DP3, MAD, ADD,\n'
                      'MUL on constants, with scalar source replication.', None, fp,
                      ['draw rect -1 -1 2 2', probe_all([k * m for k, m in zip(r, (0.5, 0.5, 0.5, 1.0))])],
                      FP_REQ))

    fp = '''!!ARBfp1.0
TEMP a, b, c;
MOV a, {1.5, -0.5, 0.25, 0.75};
ADD_SAT b, a, 0.5;
MAD_SAT c, a, -a, a;
MOV_SAT a, -a.wzyx;
MAD c, a, 0.25, c;
MAD result.color, b, 0.5, c;
END'''
    av = (1.5, -0.5, 0.25, 0.75)
    b = [clamp01(k + 0.5) for k in av]
    c = [clamp01(k * -k + k) for k in av]
    a2 = [clamp01(-k) for k in av[::-1]]
    out = [p * 0.5 + (q * 0.25 + r) for p, q, r in zip(b, a2, c)]
    assert all(0.0 <= v <= 1.0 for v in out)
    files.append(test('arb-fp-sat', '_SAT on ADD, MAD and MOV, the last on a negated swizzle.', None, fp,
                      ['draw rect -1 -1 2 2', probe_all(out)], FP_REQ))

    fp = '''!!ARBfp1.0
PARAM e = program.env[3];
PARAM l = program.local[2];
TEMP t;
MUL t, e.wzyx, -l;
ADD result.color, t, {1.0, 1.0, 1.0, 1.0};
END'''
    e, l = (0.25, 0.5, 0.75, 1.0), (0.5, 1.0, 0.25, 0.75)
    files.append(test('arb-fp-params', 'program.env[3] and program.local[2] in a fragment program, with\n'
                      'swizzle and negation: 1 - e.wzyx * l.', None, fp,
                      ['parameter env_fp 3 (0.25, 0.5, 0.75, 1.0)', 'parameter local_fp 2 (0.5, 1.0, 0.25, 0.75)',
                       'draw rect -1 -1 2 2',
                       probe_all([1 - p * q for p, q in zip(e[::-1], l)])], FP_REQ))

    shadow_pts = [((60, 60), 1), ((190, 60), 0), ((140, 190), 1), ((140, 60), 0), ((190, 190), 0),
                  ((10, 10), 1)]
    fp = '''!!ARBfp1.0
OPTION ARB_fragment_program_shadow;
TEMP t, r;
MOV t, fragment.texcoord[0].xyyw;
TEX r, t, texture[0], SHADOW2D;
MOV result.color, {0.0, 0.25, 0.5, 1.0};
MOV result.color.x, r.x;
END'''
    files.append(test('arb-fp-shadow2d', 'ARB_fragment_program_shadow: SHADOW2D with ref = t in .z,\n'
                      'GREATER against the depth ramp x / 7 (as tex-shadow2d).', None, fp,
                      ['texture shadow2D 0 (8, 8)', 'draw rect tex -1 -1 2 2 0 0 1 1'] +
                      [probe(x, y, (r, 0.25, 0.5, 1.0)) for (x, y), r in shadow_pts],
                      FP_REQ + ('GL_ARB_fragment_program_shadow',)))

    fp = '''!!ARBfp1.0
OPTION ARB_fragment_program_shadow;
TEMP t, r;
MUL t, fragment.texcoord[0].xyyw, {8.0, 8.0, 1.0, 1.0};
TEX r, t, texture[0], SHADOWRECT;
MOV result.color, {0.0, 0.25, 0.5, 1.0};
MOV result.color.x, r.x;
END'''
    files.append(test('arb-fp-shadowrect', 'SHADOWRECT with unnormalised coordinates (8 s, 8 t), ref = t.',
                      None, fp,
                      ['texture shadowRect 0 (8, 8)', 'draw rect tex -1 -1 2 2 0 0 1 1'] +
                      [probe(x, y, (r, 0.25, 0.5, 1.0)) for (x, y), r in shadow_pts],
                      FP_REQ + ('GL_ARB_fragment_program_shadow', 'GL_ARB_texture_rectangle')))

    vp = '''!!ARBvp1.0
PARAM a = {4.0, 0.25, -2.75, 0.5};
PARAM b = {0.5, -1.0, 0.25, 2.0};
TEMP r, t, e;
MOV result.position, vertex.position;
DPH r.x, a, b;
RCP r.y, a.x;
RSQ r.z, a.x;
ABS t, a;
FRC t.x, t.z;
FLR t.y, a.z;
MAX t.z, a.y, b.z;
MIN t.w, a.w, b.x;
SGE r.w, a.w, b.x;
SLT t.z, a.z, b.y;
MUL t.z, t.z, 0.5;
EX2 e.x, b.y;
LG2 e.y, e.x;
POW e.z, b.w, b.w;
MUL r.x, r.x, 0.125;
ADD r.y, r.y, e.x;
MAD r.z, r.z, t.x, t.z;
MAD r.w, r.w, 0.25, e.z;
MUL result.color, r, {1.0, 1.0, 1.0, 0.125};
MOV result.texcoord[0], t;
MOV result.texcoord[1].xyz, e;
END'''
    fp = '''!!ARBfp1.0
TEMP c;
MOV c, fragment.color;
MAD c.w, fragment.texcoord[0].y, 0.125, c.w;
MAD c.w, fragment.texcoord[1].y, -0.25, c.w;
MOV result.color, c;
END'''
    a, b = (4.0, 0.25, -2.75, 0.5), (0.5, -1.0, 0.25, 2.0)
    dph = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + b[3]
    t = [abs(k) for k in a]
    t[0] = t[2] % 1.0
    t[1] = float(math.floor(a[2]))
    t[2] = max(a[1], b[2])
    t[3] = min(a[3], b[0])
    sge = 1.0 if a[3] >= b[0] else 0.0
    t[2] = (1.0 if a[2] < b[1] else 0.0) * 0.5
    a2 = [2.0 ** b[1], 0.0, b[3] ** b[3], a[3]]
    a2[1] = math.log2(a2[0])
    r = [dph * 0.125, 1 / a[0] + a2[0], 1 / math.sqrt(a[0]) * t[0] + t[2], sge * 0.25 + a2[2]]
    col = [r[0], r[1], r[2], r[3] * 0.125]
    col[3] = col[3] + t[1] * 0.125 + a2[1] * -0.25
    assert all(0.0 <= k <= 1.0 for k in col), col
    files.append(test('arb-vp-alu', 'Vertex-program DPH, RCP, RSQ, ABS, FRC, FLR, MAX, MIN, SGE, SLT,\n'
                      'EX2, LG2, POW, MUL, ADD, MAD on constants; partial results travel in\n'
                      'the colour and two texcoords and are recombined per channel.', vp, fp,
                      ['draw rect -1 -1 2 2', probe_all(col)], BOTH))

    fp = '''!!ARBfp1.0
TEMP a, r;
MAD a, fragment.texcoord[0].x, 3.0, -1.0;
SIN r.x, a.x;
COS r.y, a.x;
XPD r.zw, {0.5, 0.25, 1.0, 0.0}, {0.25, 1.0, 0.5, 0.0};
DPH r.w, {0.5, 0.25, -1.0, 7.0}, {0.5, 1.0, 0.25, 0.25};
MAD result.color, r, 0.5, 0.5;
END'''

    def trig_col(x):
        ang = s_of(x) * 3.0 - 1.0
        u, v = (0.5, 0.25, 1.0), (0.25, 1.0, 0.5)
        xz = u[0] * v[1] - u[1] * v[0]
        dph = 0.25 + 0.25 - 0.25 + 0.25
        return (math.sin(ang) * 0.5 + 0.5, math.cos(ang) * 0.5 + 0.5, xz * 0.5 + 0.5, dph * 0.5 + 0.5)
    files.append(test('arb-fp-trig-xpd-dph', 'Fragment-program SIN and COS of a = 3 s - 1, the z of an XPD\n'
                      'and a DPH, shown as 0.5 v + 0.5.', None, fp,
                      ['draw rect tex -1 -1 2 2 0 0 1 1'] + [probe(x, 100, trig_col(x))
                                                             for x in (0, 60, 125, 190, 249)], FP_REQ))

    fp = '''!!ARBfp1.0
TEMP a, b;
TEX a, fragment.texcoord[0], texture[0], 2D;
TEX b, fragment.texcoord[1], texture[1], 2D;
LRP result.color, 0.25, a, b;
END'''
    files.append(test('arb-fp-texcoord-units', 'Constant texcoords from `texcoord 0` / `texcoord 1` sample two\n'
                      'units: 0.25 rgbw(0.25, 0.75) (blue) + 0.75 checkerboard(0.75, 0.25)\n'
                      '(the second colour).', None, fp,
                      ['texture rgbw 0 (8, 8)',
                       'texture checkerboard 1 0 (8, 8) (1, 0, 0, 1) (0, 1, 0, 1)',
                       'texcoord 0 (0.25, 0.75, 0, 1)', 'texcoord 1 (0.75, 0.25, 0, 1)',
                       'draw rect -1 -1 2 2', probe_all((0.0, 0.75, 0.25, 1.0))], FP_REQ))

    rows = [(i * 0.125 + 0.0625, 1 - i * 0.125, 0.25 * (i % 2), 1.0) for i in range(6)]
    vp = '''!!ARBvp1.0
PARAM arr[6] = { %s };
ADDRESS A0;
TEMP i;
MOV result.position, vertex.position;
MAD i.x, vertex.position.x, 1.5, 1.5;
ARL A0.x, i.x;
MOV result.color, arr[A0.x + 1];
ARL A0.x, -vertex.position.y;
MOV result.color.w, arr[A0.x + 2].x;
END''' % ',\n                 '.join('{%s}' % ', '.join(fmt_val(v) for v in r) for r in rows)

    def arl_col(x, y):
        u, v = s_of(x), s_of(y)
        left, right = rows[1], rows[4]
        rgb = [l + u * (r - l) for l, r in zip(left[:3], right[:3])]
        bottom, top = rows[3][0], rows[1][0]       # index -(-1)+2 = 3 at y = -1, 1 at y = +1
        return rgb + [bottom + v * (top - bottom)]
    files.append(test('arb-vp-arl-per-vertex', 'ARL with a different index at every vertex: floor(1.5 x + 1.5)\n'
                      'is 0 on the left and 3 on the right edge (arr[1] / arr[4]),\n'
                      'floor(-y) is 1 at the bottom and -1 at the top for alpha\n'
                      '(arr[3].x / arr[1].x); the rasterizer interpolates between them.', vp, FP_COLOR,
                      ['draw rect -1 -1 2 2'] + [probe(x, y, arl_col(x, y))
                                                 for x, y in ((5, 5), (240, 20), (20, 240), (245, 245),
                                                              (125, 60))], BOTH))

    fp = '''!!ARBfp1.0
TEMP p;
MUL p.xy, fragment.position, 0.004;
FRC p.z, fragment.position.x;
MAD p.w, fragment.position.z, 0.5, 0.5;
MOV result.color, p;
END'''
    pts = [(0, 0), (10, 200), (124, 124), (249, 3), (200, 249)]
    files.append(test('arb-fp-position', 'fragment.position: window coordinates with a lower-left origin\n'
                      'and pixel centres at .5; z = 0.5 for z = 0 in NDC.  Shows\n'
                      '(x / 250, y / 250, frac(x), 0.5 z + 0.5).', None, fp,
                      ['draw rect -1 -1 2 2'] + [probe(x, y, (s_of(x), s_of(y), 0.5, 0.75)) for x, y in pts],
                      FP_REQ))

    fp = '''!!ARBfp1.0
PARAM p = state.fog.params;
PARAM c = state.fog.color;
MAD result.color, p, 0.5, c;
END'''
    files.append(test('arb-fp-state-fog', 'state.fog.params and state.fog.color bindings hold the GL\n'
                      'defaults (density 1, start 0, end 1, 1 / (end - start) = 1; colour 0).',
                      None, fp, ['draw rect -1 -1 2 2', probe_all((0.5, 0.0, 0.5, 0.5))], FP_REQ))

    vp = '''!!ARBvp1.0
MOV result.position, vertex.position;
MAD result.texcoord[0], vertex.position, {1.0, 1.0, 0.0, 0.0}, {1.0, 1.0, 0.0, 2.0};
END'''
    fp = '''!!ARBfp1.0
TXP result.color, fragment.texcoord[0], texture[0], 2D;
END'''
    files.append(test('arb-vp-fp-txp', 'Vertex program emits (x + 1, y + 1, 0, 2); TXP in the fragment\n'
                      'program divides by q = 2 to get the rgbw quadrants.', vp, fp,
                      ['texture rgbw 0 (8, 8)', 'draw rect -1 -1 2 2'] +
                      [probe(x, y, c) for (x, y), c in quads], BOTH))
    return files
