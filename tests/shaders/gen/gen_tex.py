"""Texture tests.  The model in tgsi_model.py has no sampler, so these expected
colours are worked out by hand from piglit's texture definitions (the runner
mirrors shader_runner):
  texture rgbw U (w, h)      quadrants: t < 0.5: s < 0.5 red, else green;
                             t >= 0.5: s < 0.5 blue, else white; NEAREST, one level
  texture checkerboard U L (w, h) (c0) (c1)
                             2x2 tiles: bottom-left and top-right c0, others c1; NEAREST
  texture miptree U          8x8, 4 levels: red, green, blue, white; NEAREST_MIPMAP_NEAREST
  texture shadow2D U (w, h)  depth = x / (w - 1) per texel column; compare GREATER
                             (1 where ref > depth)
Window 250x250 and v = (pixel + 0.5) / 250 from std_vs, so at pixel 60 the
texel column of an 8-wide texture is floor(0.242 * 8) = 1, at 190 it is 6.
The implicit LOD of v over an 8x8 texture is log2(8 / 250) = -4.97."""
from common import Tgsi, std_vs, write_test, fmt_val, tgsi_requirements

RED, GREEN, BLUE, WHITE = (1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 1, 1)
QUADS = [((60, 60), RED), ((190, 60), GREEN), ((60, 190), BLUE), ((190, 190), WHITE)]


def std_fs():
    fs = Tgsi('FRAG')
    fs.decl('IN[0], GENERIC[0], PERSPECTIVE')
    fs.decl('OUT[0], COLOR')
    return fs


def probe(points):
    return ['probe rgba %d %d %s' % (x, y, ' '.join(fmt_val(c) for c in col))
            for (x, y), col in points]


def test(name, comment, vs, fs, setup, probes):
    cmds = ['clear color 0 0 0 0', 'clear'] + setup + ['draw rect -1 -1 2 2'] + probe(probes)
    return write_test(name, comment, [('require', tgsi_requirements([vs, fs])),
                                      ('vertex shader tgsi', vs.text()),
                                      ('fragment shader tgsi', fs.text())], cmds)


def sampler(sh, unit=0, target='2D'):
    sh.decl('SAMP[%d]' % unit)
    sh.decl('SVIEW[%d], %s, FLOAT' % (unit, target))


def generate():
    files = []

    fs = std_fs()
    sampler(fs)
    fs('TEX OUT[0], IN[0], SAMP[0], 2D')
    files.append(test('tex-2d-rgbw', 'TEX 2D of the rgbw texture with v as coordinates: one quadrant\n'
                      'colour per window quadrant.', std_vs(), fs, ['texture rgbw 0 (8, 8)'], QUADS))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0]')
    fs('TEX TEMP[0], IN[0].yxzw, SAMP[0], 2D')
    fs('MUL OUT[0], TEMP[0].zxyw, %s' % fs.imm([0.5, 1.0, 1.0, 0.75]))
    files.append(test('tex-2d-swizzle', 'TEX with swizzled coordinates (s = v.y, t = v.x) and a\n'
                      'swizzled, scaled result: out = tex.zxyw * (0.5, 1, 1, 0.75).', std_vs(), fs,
                      ['texture rgbw 0 (8, 8)'],
                      [((60, 60), (0, 1, 0, 0.75)), ((190, 60), (0.5, 0, 0, 0.75)),
                       ((60, 190), (0, 0, 1, 0.75)), ((190, 190), (0.5, 1, 1, 0.75))]))

    fs = std_fs()
    sampler(fs)
    fs('TEX OUT[0], IN[0], SAMP[0], 2D')
    files.append(test('tex-2d-checkerboard', 'TEX 2D of a 2x2-tile checkerboard (red / blue).', std_vs(), fs,
                      ['texture checkerboard 0 0 (8, 8) (1, 0, 0, 1) (0, 0, 1, 1)'],
                      [((60, 60), RED), ((190, 60), BLUE), ((60, 190), BLUE), ((190, 190), RED),
                       ((10, 240), BLUE), ((240, 10), BLUE)]))

    fs = std_fs()
    sampler(fs)
    fs('TEX OUT[0], %s, SAMP[0], 2D' % fs.imm([0.5, 0.5, 0.0, 1.0]))
    files.append(test('tex-2d-linear', 'LINEAR filtering at the centre of an 8x8 checkerboard: the\n'
                      'four texels around (0.5, 0.5) are weighted 1/4 each, giving\n'
                      '(red + blue) / 2.', std_vs(), fs,
                      ['texture checkerboard 0 0 (8, 8) (1, 0, 0, 1) (0, 0, 1, 1)',
                       'texparameter 2D min linear', 'texparameter 2D mag linear'],
                      [((125, 125), (0.5, 0, 0.5, 1)), ((3, 3), (0.5, 0, 0.5, 1))]))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    k = vs.imm([1.0, 0.0, 2.0, 0.0])
    vs('MOV OUT[0], IN[0]')
    vs('MAD OUT[1], IN[0], %s.xxyy, %s.xxyz' % (k, k))   # (x+1, y+1, 0, 2)
    fs = std_fs()
    sampler(fs)
    fs('TXP OUT[0], IN[0], SAMP[0], 2D')
    files.append(test('tex-txp', 'TXP divides by q: coordinates (x+1, y+1, 0, 2) project to v.', vs, fs,
                      ['texture rgbw 0 (8, 8)'], QUADS))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0]')
    k = fs.imm([4.0, 5.0, 0.0, 0.0])
    fs('MOV TEMP[0], IN[0]')
    fs('MUL TEMP[0].w, IN[0].xxxx, %s.xxxx' % k)
    fs('FLR TEMP[0].w, TEMP[0].wwww')
    fs('ADD TEMP[0].w, TEMP[0].wwww, %s.yyyy' % k)
    fs('TXB OUT[0], TEMP[0], SAMP[0], 2D')
    files.append(test('tex-txb-miptree', 'TXB on the miptree with bias 5 + floor(4 v.x): LOD\n'
                      '-4.97 + bias = 0.03, 1.03, 2.03, 3.03 selects levels 0..3\n'
                      '(red, green, blue, white) across the four vertical bands.', std_vs(), fs,
                      ['texture miptree 0'],
                      [((30, 125), RED), ((90, 20), GREEN), ((160, 230), BLUE), ((220, 125), WHITE)]))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0]')
    fs('MOV TEMP[0], IN[0]')
    fs('MUL TEMP[0].w, IN[0].xxxx, %s' % fs.imm([4.0, 4.0, 4.0, 4.0]))
    fs('FLR TEMP[0].w, TEMP[0].wwww')
    fs('TXL OUT[0], TEMP[0], SAMP[0], 2D')
    files.append(test('tex-txl-miptree', 'TXL on the miptree with explicit LOD floor(4 v.x) = 0..3.',
                      std_vs(), fs, ['texture miptree 0'],
                      [((30, 125), RED), ((90, 20), GREEN), ((160, 230), BLUE), ((220, 125), WHITE)]))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0..2]')
    k = fs.imm([4.0, 0.125, 0.0, 0.0])
    fs('MUL TEMP[0].x, IN[0].xxxx, %s.xxxx' % k)
    fs('FLR TEMP[0].x, TEMP[0].xxxx')
    fs('EX2 TEMP[0].x, TEMP[0].xxxx')
    fs('MUL TEMP[0].x, TEMP[0].xxxx, %s.yyyy' % k)   # gradient 2^k / 8
    fs('MOV TEMP[1], %s.zzzz' % k)
    fs('MOV TEMP[2], %s.zzzz' % k)
    fs('MOV TEMP[1].x, TEMP[0].xxxx')
    fs('MOV TEMP[2].y, TEMP[0].xxxx')
    fs('TXD OUT[0], IN[0], TEMP[1], TEMP[2], SAMP[0], 2D')
    files.append(test('tex-txd', 'TXD with explicit gradients ddx = (g, 0), ddy = (0, g),\n'
                      'g = 2^floor(4 v.x) / 8, so LOD = floor(4 v.x) exactly: levels 0..3.',
                      std_vs(), fs, ['texture miptree 0'],
                      [((30, 125), RED), ((90, 20), GREEN), ((160, 230), BLUE), ((220, 125), WHITE)]))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0]')
    fs('MUL TEMP[0], IN[0], %s' % fs.imm([8.0, 8.0, 0.0, 0.0]))
    fs('F2I TEMP[0], TEMP[0]')
    fs('TXF OUT[0], TEMP[0], SAMP[0], 2D')
    files.append(test('tex-txf', 'TXF fetches texel (floor(8 v.x), floor(8 v.y)) at level 0.',
                      std_vs(), fs, ['texture rgbw 0 (8, 8)'], QUADS + [((5, 245), BLUE), ((245, 5), GREEN)]))

    fs = std_fs()
    sampler(fs, 0)
    sampler(fs, 1)
    fs.decl('TEMP[0..2]')
    ki = fs.imm([0, 2, 0, 0], 'INT32')
    fs('MOV TEMP[2], %s' % fs.imm([0.0, 0.0, 0.0, 1.0]))
    fs('TXQ TEMP[0].xy, %s.xxxx, SAMP[0], 2D' % ki)
    fs('TXQ TEMP[1].xy, %s.yyyy, SAMP[1], 2D' % ki)
    fs('I2F TEMP[0].xy, TEMP[0].xyyy')
    fs('I2F TEMP[1].x, TEMP[1].xxxx')
    fs('MUL TEMP[2].xy, TEMP[0].xyyy, %s.xxxx' % fs.imm([0.03125, 0.0, 0.0, 0.0]))
    fs('MUL TEMP[2].z, TEMP[1].xxxx, %s.xxxx' % fs.imm([0.125, 0.0, 0.0, 0.0]))
    fs('MOV OUT[0], TEMP[2]')
    files.append(test('tex-txq', 'TXQ: size of a 16x8 texture at level 0 (16/32, 8/32) and width\n'
                      'of the miptree at level 2 (2/8).', std_vs(), fs,
                      ['texture rgbw 0 (16, 8)', 'texture miptree 1'],
                      [((125, 125), (0.5, 0.25, 0.25, 1))]))

    fs = std_fs()
    sampler(fs, 0, 'SHADOW2D')
    fs.decl('TEMP[0..1]')
    fs('MOV TEMP[0], IN[0].xyyw')                 # ref = v.y
    fs('TEX TEMP[1], TEMP[0], SAMP[0], SHADOW2D')
    fs('MOV TEMP[1].yzw, %s' % fs.imm([0.0, 0.25, 0.5, 1.0]))
    fs('MOV OUT[0], TEMP[1]')
    files.append(test('tex-shadow2d', 'SHADOW2D compare (GREATER) of ref = v.y against depth column\n'
                      'x / 7: pass (red = 1) where v.y > depth.', std_vs(), fs,
                      ['texture shadow2D 0 (8, 8)'],
                      [((60, 60), (1, 0.25, 0.5, 1)), ((190, 60), (0, 0.25, 0.5, 1)),
                       ((140, 190), (1, 0.25, 0.5, 1)), ((140, 60), (0, 0.25, 0.5, 1)),
                       ((190, 190), (0, 0.25, 0.5, 1)), ((10, 10), (1, 0.25, 0.5, 1))]))

    fs = std_fs()
    sampler(fs, 0, 'SHADOWRECT')
    fs.decl('TEMP[0..1]')
    fs('MUL TEMP[0], IN[0].xyyw, %s' % fs.imm([8.0, 8.0, 1.0, 1.0]))   # unnormalised s, t
    fs('TEX TEMP[1], TEMP[0], SAMP[0], SHADOWRECT')
    fs('MOV TEMP[1].yzw, %s' % fs.imm([0.0, 0.25, 0.5, 1.0]))
    fs('MOV OUT[0], TEMP[1]')
    files.append(test('tex-shadowrect', 'SHADOWRECT: unnormalised coordinates (8 v.x, 8 v.y), ref = v.y,\n'
                      'GREATER against depth column x / 7, as in tex-shadow2d.', std_vs(), fs,
                      ['texture shadowRect 0 (8, 8)'],
                      [((60, 60), (1, 0.25, 0.5, 1)), ((190, 60), (0, 0.25, 0.5, 1)),
                       ((140, 190), (1, 0.25, 0.5, 1)), ((140, 60), (0, 0.25, 0.5, 1)),
                       ((190, 190), (0, 0.25, 0.5, 1)), ((10, 10), (1, 0.25, 0.5, 1))]))

    fs = std_fs()
    sampler(fs, 0, 'SHADOW1D')
    fs.decl('TEMP[0..1]')
    fs('MOV TEMP[0], IN[0].xwyw')                 # s, unused, ref = v.y
    fs('TEX TEMP[1], TEMP[0], SAMP[0], SHADOW1D')
    fs('MOV TEMP[1].yzw, %s' % fs.imm([0.0, 0.25, 0.5, 1.0]))
    fs('MOV OUT[0], TEMP[1]')
    files.append(test('tex-shadow1d', 'SHADOW1D: s = v.x, ref = v.y in .z, GREATER against depth\n'
                      'x / 7 of an 8-texel 1D depth texture (piglit syntax `texture shadow1D U (w)`).',
                      std_vs(), fs, ['texture shadow1D 0 (8)'],
                      [((60, 60), (1, 0.25, 0.5, 1)), ((190, 60), (0, 0.25, 0.5, 1)),
                       ((140, 190), (1, 0.25, 0.5, 1)), ((140, 60), (0, 0.25, 0.5, 1)),
                       ((190, 190), (0, 0.25, 0.5, 1)), ((10, 10), (1, 0.25, 0.5, 1))]))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0..2]')
    fs('MUL TEMP[0], IN[0], %s' % fs.imm([64.0, 64.0, 0.0, 0.0]))
    fs('TEX TEMP[1], TEMP[0], SAMP[0], 2D')
    fs('TEX_LZ TEMP[2], TEMP[0], SAMP[0], 2D')
    fs('LRP OUT[0], %s, TEMP[1], TEMP[2]' % fs.imm([0.75, 0.75, 0.75, 0.75]))
    files.append(test('tex-lz', 'Coordinates 64 v give an implicit LOD of log2(64 / 250 * 8) = 1.03\n'
                      '(level 1, green) for TEX, while TEX_LZ always samples level 0 (red):\n'
                      'out = 0.75 TEX + 0.25 TEX_LZ.', std_vs(), fs, ['texture miptree 0'],
                      [((30, 30), (0.25, 0.75, 0, 1)), ((200, 120), (0.25, 0.75, 0, 1))]))

    fs = std_fs()
    sampler(fs)
    fs.decl('TEMP[0]')
    fs('MUL TEMP[0], IN[0], %s' % fs.imm([8.0, 8.0, 0.0, 0.0]))
    fs('F2I TEMP[0], TEMP[0]')
    fs('MOV TEMP[0].w, %s.xxxx' % fs.imm([3, 0, 0, 0], 'INT32'))   # ignored by TXF_LZ
    fs('TXF_LZ OUT[0], TEMP[0], SAMP[0], 2D')
    files.append(test('tex-txf-lz', 'TXF_LZ fetches texel (floor(8 v.x), floor(8 v.y)) at level 0 of\n'
                      'the rgbw texture (a .w of 3 must not be read as a LOD).', std_vs(), fs,
                      ['texture rgbw 0 (8, 8)'], QUADS))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    sampler(vs)
    vs('MOV OUT[0], IN[0]')
    vs('TXL OUT[1], %s, SAMP[0], 2D' % vs.imm([0.75, 0.25, 0.0, 0.0]))
    fs = std_fs()
    fs('MUL OUT[0], IN[0], %s' % fs.imm([0.5, 0.5, 0.5, 1.0]))
    files.append(test('tex-vs-txl', 'Vertex-shader TXL at (0.75, 0.25), the green quadrant, halved\n'
                      'in the fragment shader.', vs, fs, ['texture rgbw 0 (8, 8)'],
                      [((125, 125), (0, 0.5, 0, 1)), ((5, 5), (0, 0.5, 0, 1))]))

    fs = std_fs()
    sampler(fs, 0)
    sampler(fs, 1)
    fs.decl('TEMP[0..1]')
    fs('TEX TEMP[0], IN[0], SAMP[0], 2D')
    fs('TEX TEMP[1], IN[0].yxzw, SAMP[1], 2D')
    fs('LRP OUT[0], %s, TEMP[0], TEMP[1]' % fs.imm([0.75, 0.75, 0.75, 0.75]))
    files.append(test('tex-two-units', 'Two samplers: 0.75 rgbw(v) + 0.25 checkerboard(v.yx), the\n'
                      'checkerboard being green / black.', std_vs(), fs,
                      ['texture rgbw 0 (8, 8)',
                       'texture checkerboard 1 0 (8, 8) (0, 1, 0, 1) (0, 0, 0, 0)'],
                      [((60, 60), (0.75, 0.25, 0, 1)), ((190, 60), (0, 0.75, 0, 0.75)),
                       ((60, 190), (0, 0, 0.75, 0.75)), ((190, 190), (0.75, 1, 0.75, 1))]))
    fs = std_fs()
    fs.decl('CONST[0][0]')
    fs.decl('CONST[1][0..1]')
    fs('MAD OUT[0], CONST[1][0], CONST[0][0], CONST[1][1]')
    vs = std_vs()
    files.append(test('tgsi-const-buffer1', 'Constant buffer 1 (`constant 1 N (...)`) next to buffer 0\n'
                      '(`uniform vec4 0`): CONST[1][0] * CONST[0][0] + CONST[1][1].', vs, fs,
                      ['uniform vec4 0 0.5 2.0 0.25 1.0', 'constant 1 0 (0.5, 0.25, 2.0, 0.5)',
                       'constant 1 1 (0.125, 0.25, 0.25, 0.25)'],
                      [((125, 125), (0.5 * 0.5 + 0.125, 2.0 * 0.25 + 0.25, 0.25 * 2.0 + 0.25,
                                     1.0 * 0.5 + 0.25))]))
    return files
