"""Hand-designed TGSI tests: multi-output opcodes, operand modifiers, control
flow, indirect addressing, constants, varyings and derivatives.  Each shader
is written here once; its expected colours come from tgsi_model evaluated at
every probed pixel (see common.Pipeline)."""
from common import Tgsi, auto_scale, std_vs, tgsi_test, fmt_float
from tgsi_model import Machine, Program, bitsf


def std_fs(extra_in=()):
    fs = Tgsi('FRAG')
    fs.decl('IN[0], GENERIC[0], PERSPECTIVE')
    for d in extra_in:
        fs.decl(d)
    fs.decl('OUT[0], COLOR')
    return fs


def scaled_test(name, comment, build, stage='fs', kind='f'):
    """build(sh, zero) computes into TEMP[4]; the result is shown scaled."""
    proc = 'FRAG' if stage == 'fs' else 'VERT'
    sh = Tgsi(proc)
    if stage == 'fs':
        sh.decl('IN[0], GENERIC[0], PERSPECTIVE')
        sh.decl('OUT[0], COLOR')
        out = 'OUT[0]'
    else:
        sh.decl('IN[0]')
        sh.decl('OUT[0], POSITION')
        sh.decl('OUT[1], GENERIC[0]')
        sh('MOV OUT[0], IN[0]')
        out = 'OUT[1]'
    sh.decl('TEMP[0..7]')
    build(sh, 'IN[0].zzzz')
    if kind == 'i':
        sh('I2F TEMP[4], TEMP[4]')
    m = Machine(Program(sh.code + ['END']), {0: [0, 0, 0, 0x3f800000]}, {}, sh.imm_bits())
    m.run()
    vals = [bitsf(b) for b in m.regs['TEMP'][4]]
    scale, bias = auto_scale(vals)
    for v in vals:
        assert 0.0 <= v * scale + bias <= 1.0, (name, vals)
    k = sh.imm([scale, bias, 0.0, 0.0])
    sh('MAD %s, TEMP[4], %s.xxxx, %s.yyyy' % (out, k, k))
    comment += '\nRaw result %s, shown as result * %s + %s.' % (
        ['%.6g' % v for v in vals], fmt_float(scale), fmt_float(bias))
    if stage == 'fs':
        return tgsi_test(name, comment, std_vs(), sh)
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    return tgsi_test(name, comment, sh, fs)


def load(sh, reg, vals, zero):
    sh('ADD %s, %s, %s' % (reg, sh.imm(vals), zero))


def chan_tests():
    files = []

    def dot(sh, z):
        load(sh, 'TEMP[0]', [0.5, 0.25, -0.5, 0.125], z)
        load(sh, 'TEMP[1]', [0.5, 1.0, 0.25, 2.0], z)
        sh('DP2 TEMP[4].x, TEMP[0], TEMP[1]')
        sh('DP3 TEMP[4].y, TEMP[0], TEMP[1]')
        sh('DP4 TEMP[4].z, TEMP[0], TEMP[1]')
        sh('DPH TEMP[4].w, TEMP[0], TEMP[1]')
    files.append(scaled_test('tgsi-alu-dot', 'DP2, DP3, DP4 and DPH of the same two vectors, one\n'
                             'per channel (DPH adds src1.w to the 3-component product).', dot))
    files.append(scaled_test('tgsi-alu-dot-vs', 'DP2, DP3, DP4 and DPH in the vertex shader.', dot, 'vs'))

    def dot_swz(sh, z):
        load(sh, 'TEMP[0]', [1.0, 2.0, 3.0, 4.0], z)
        load(sh, 'TEMP[1]', [0.5, -0.25, 0.125, 1.0], z)
        sh('DP4 TEMP[4].x, TEMP[0].wzyx, TEMP[1]')
        sh('DP3 TEMP[4].y, -TEMP[0].xxyy, TEMP[1].wzyx')
        sh('DP2 TEMP[4].z, |TEMP[1].yyww|, TEMP[0].zwxy')
        sh('DPH TEMP[4].w, TEMP[1].zzzz, TEMP[0].yxwz')
    files.append(scaled_test('tgsi-alu-dot-swizzle', 'Dot products whose sources are swizzled, negated and\n'
                             'abs-ed, so a backend must apply modifiers before the reduction.', dot_swz))

    def exp_(sh, z):
        load(sh, 'TEMP[0]', [2.75, 0.0, 0.0, 0.0], z)
        sh('EXP TEMP[4], TEMP[0].xxxx')
    files.append(scaled_test('tgsi-chan-exp', 'EXP of 2.75: (2^floor(x), frac(x), 2^x, 1).', exp_))

    def exp_neg(sh, z):
        load(sh, 'TEMP[0]', [-1.25, 0.0, 0.0, 0.0], z)
        sh('EXP TEMP[4], TEMP[0].xxxx')
    files.append(scaled_test('tgsi-chan-exp-neg', 'EXP of -1.25: floor rounds towards -inf, so\n'
                             'x = 2^-2 and y = 0.75.', exp_neg))

    def log_(sh, z):
        load(sh, 'TEMP[0]', [12.0, 0.0, 0.0, 0.0], z)
        sh('LOG TEMP[4], TEMP[0].xxxx')
    files.append(scaled_test('tgsi-chan-log', 'LOG of 12: (floor(log2 x), x / 2^floor(log2 x), log2 x, 1).', log_))

    def log_neg(sh, z):
        load(sh, 'TEMP[0]', [-0.375, 0.0, 0.0, 0.0], z)
        sh('LOG TEMP[4], TEMP[0].xxxx')
    files.append(scaled_test('tgsi-chan-log-neg', 'LOG uses |x|: LOG of -0.375 is (-2, 1.5, log2 0.375, 1).', log_neg))

    def lit(sh, z):
        load(sh, 'TEMP[0]', [0.5, 0.5, 0.0, 2.0], z)
        sh('LIT TEMP[4], TEMP[0]')
    files.append(scaled_test('tgsi-chan-lit', 'LIT of (0.5, 0.5, -, 2): (1, 0.5, 0.5^2, 1).', lit))

    def lit2(sh, z):
        load(sh, 'TEMP[0]', [-0.5, 0.75, 0.0, 2.0], z)
        load(sh, 'TEMP[1]', [0.75, -0.5, 0.0, 3.0], z)
        sh('LIT TEMP[2], TEMP[0]')
        sh('LIT TEMP[3], TEMP[1]')
        sh('MOV TEMP[4].xy, TEMP[2].yzyz')
        sh('MOV TEMP[4].zw, TEMP[3].yyyz')
    files.append(scaled_test('tgsi-chan-lit-clamp', 'LIT with a negative diffuse term (y and z are 0) and with\n'
                             'a negative specular base (z is 0): shows (l1.y, l1.z, l2.y, l2.z).', lit2))

    def dst(sh, z):
        load(sh, 'TEMP[0]', [9.0, 2.0, 0.75, 9.0], z)
        load(sh, 'TEMP[1]', [9.0, 0.25, 9.0, 0.5], z)
        sh('DST TEMP[4], TEMP[0], TEMP[1]')
    files.append(scaled_test('tgsi-chan-dst', 'DST: (1, a.y*b.y, a.z, b.w); the 9s must be ignored.', dst))
    files.append(scaled_test('tgsi-chan-dst-vs', 'DST in the vertex shader.', dst, 'vs'))
    files.append(scaled_test('tgsi-chan-lit-vs', 'LIT in the vertex shader.', lit, 'vs'))
    return files


def modifier_tests():
    files = []

    def swz(sh, z):
        load(sh, 'TEMP[0]', [0.125, 0.25, 0.5, 0.75], z)
        sh('MOV TEMP[1], TEMP[0].wzyx')
        sh('ADD TEMP[2], TEMP[0].xxyy, TEMP[1].zwzw')
        sh('MUL TEMP[4], TEMP[2].wzyx, TEMP[0].wwxx')
    files.append(scaled_test('tgsi-mod-swizzle', 'Reversing, replicating and mixed swizzles on sources.', swz))

    def wm(sh, z):
        load(sh, 'TEMP[4]', [0.125, 0.25, 0.375, 0.5], z)
        load(sh, 'TEMP[0]', [0.75, 0.875, 1.0, 0.625], z)
        sh('MOV TEMP[4].xz, TEMP[0]')
        sh('ADD TEMP[4].w, TEMP[4].xxxx, TEMP[0].wwww')
        sh('MUL TEMP[4].y, TEMP[4].yyyy, TEMP[0].zzzz')
        sh('MOV TEMP[4].z, TEMP[0].yyyy')
    files.append(scaled_test('tgsi-mod-writemask', 'Partial write masks: untouched channels keep their value,\n'
                             'and a later instruction reads a channel written by an earlier one.', wm))

    def negabs(sh, z):
        load(sh, 'TEMP[0]', [-0.25, 0.5, -0.75, 0.125], z)
        load(sh, 'TEMP[1]', [0.5, -0.5, 0.25, -1.0], z)
        sh('ADD TEMP[2], -TEMP[0], |TEMP[1]|')
        sh('MUL TEMP[3], -|TEMP[0]|, TEMP[1].yyyy')
        sh('MAD TEMP[4], -TEMP[2], |TEMP[0].wzyx|, TEMP[3]')
    files.append(scaled_test('tgsi-mod-negate-abs', 'Negate, absolute value and negated absolute value, also\n'
                             'combined with swizzles.', negabs))

    def sat(sh, z):
        load(sh, 'TEMP[0]', [1.5, -0.5, 0.25, 0.75], z)
        load(sh, 'TEMP[1]', [0.5, 0.5, 0.5, 0.5], z)
        sh('ADD_SAT TEMP[2], TEMP[0], TEMP[1]')
        sh('MAD_SAT TEMP[3], TEMP[0], -TEMP[1], TEMP[1]')
        sh('MOV_SAT TEMP[5], -TEMP[0]')
        sh('ADD TEMP[4], TEMP[2], TEMP[3]')
        sh('ADD TEMP[4], TEMP[4], TEMP[5]')
    files.append(scaled_test('tgsi-mod-sat', '_SAT clamps each result to [0, 1] before it is written;\n'
                             'shows the sum of ADD_SAT, MAD_SAT and MOV_SAT of a negated source.', sat))
    files.append(scaled_test('tgsi-mod-sat-vs', '_SAT in the vertex shader.', sat, 'vs'))

    def selfref(sh, z):
        load(sh, 'TEMP[4]', [0.25, 0.5, 0.75, 1.0], z)
        sh('MUL TEMP[4], TEMP[4].yzwx, TEMP[4]')
        sh('ADD TEMP[4].xy, TEMP[4].yxxx, TEMP[4].wzzz')
    files.append(scaled_test('tgsi-mod-dst-src-overlap', 'Destination equal to a swizzled source: every channel\n'
                             'must read the old value before any is written.', selfref))
    return files


def cf_tests():
    files = []
    H = 'IMM'

    # Per-pixel conditions come from the varying v = window position / 250.
    fs = std_fs()
    fs.decl('TEMP[0..1]')
    half = fs.imm([0.5, 0.25, 0.75, 1.0])
    fs('SLT TEMP[0].x, %s.xxxx, IN[0].xxxx' % half)
    fs('IF TEMP[0].xxxx')
    fs('MOV OUT[0], %s' % fs.imm([1.0, 0.0, 0.0, 1.0]))
    fs('ELSE')
    fs('MOV OUT[0], %s' % fs.imm([0.0, 1.0, 0.0, 1.0]))
    fs('ENDIF')
    files.append(tgsi_test('cf-if-else', 'IF/ELSE on a per-pixel condition: right half red, left half green.',
                           std_vs(), fs, [(10, 10), (100, 200), (150, 20), (240, 240)]))

    fs = std_fs()
    fs.decl('TEMP[0..2]')
    k = fs.imm([0.5, 0.25, 0.75, 0.125])
    fs('MOV TEMP[1], %s' % fs.imm([0.0, 0.0, 0.0, 1.0]))
    fs('SLT TEMP[0], %s, IN[0].xyxy' % k)           # x>.5, y>.25, x>.75, y>.125
    fs('IF TEMP[0].xxxx')
    fs('  MOV TEMP[1].x, %s.xxxx' % k)
    fs('  IF TEMP[0].yyyy')
    fs('    ADD TEMP[1].y, TEMP[1].yyyy, %s.yyyy' % k)
    fs('    IF TEMP[0].zzzz')
    fs('      ADD TEMP[1].z, TEMP[1].zzzz, %s.zzzz' % k)
    fs('      SLT TEMP[2].x, %s.zzzz, IN[0].yyyy' % k)
    fs('      IF TEMP[2].xxxx')
    fs('        MOV TEMP[1].w, %s.xxxx' % k)
    fs('      ELSE')
    fs('        MOV TEMP[1].w, %s.yyyy' % k)
    fs('      ENDIF')
    fs('    ELSE')
    fs('      ADD TEMP[1].z, TEMP[1].zzzz, %s.yyyy' % k)
    fs('    ENDIF')
    fs('  ELSE')
    fs('    MOV TEMP[1].y, %s.zzzz' % k)
    fs('  ENDIF')
    fs('ELSE')
    fs('  MOV TEMP[1].x, %s.wwww' % k)
    fs('  IF TEMP[0].wwww')
    fs('    MOV TEMP[1].z, %s.xxxx' % k)
    fs('  ENDIF')
    fs('ENDIF')
    fs('MOV OUT[0], TEMP[1]')
    # The builder numbers lines itself; strip the manual indentation.
    fs.code = [c.strip() for c in fs.code]
    pts = [(30, 20), (30, 200), (150, 20), (150, 100), (220, 100), (220, 220), (150, 220), (30, 100)]
    files.append(tgsi_test('cf-nested-if', 'Four levels of IF/ELSE nesting on per-pixel conditions\n'
                           '(x > 0.5, y > 0.25, x > 0.75, y > 0.75; y > 0.125 in the outer ELSE);\neach pixel region takes'
                           ' a different path and leaves a different colour.', std_vs(), fs, pts))

    fs = std_fs()
    fs.decl('TEMP[0..1]')
    k = fs.imm([0.5, 0.25, 0.0, 1.0])
    fs('FSLT TEMP[0].x, %s.xxxx, IN[0].xxxx' % k)
    fs('FSGE TEMP[0].y, %s.yyyy, IN[0].yyyy' % k)
    fs('MOV TEMP[1], %s.zzzw' % k)
    fs('UIF TEMP[0].xxxx')
    fs('MOV TEMP[1].x, %s.wwww' % k)
    fs('UIF TEMP[0].yyyy')
    fs('MOV TEMP[1].y, %s.wwww' % k)
    fs('ELSE')
    fs('MOV TEMP[1].z, %s.wwww' % k)
    fs('ENDIF')
    fs('ELSE')
    fs('UIF TEMP[0].yyyy')
    fs('MOV TEMP[1].yz, %s.xxxx' % k)
    fs('ENDIF')
    fs('ENDIF')
    fs('MOV OUT[0], TEMP[1]')
    files.append(tgsi_test('cf-uif', 'UIF on integer masks from FSLT/FSGE, nested, with ELSE.',
                           std_vs(), fs, [(30, 30), (30, 200), (200, 30), (200, 200)]))

    # Counted loop: sum of i for i < n, n = floor(8 * v.x) (divergent trip count).
    fs = std_fs()
    fs.decl('TEMP[0..3]')
    k = fs.imm([8.0, 1.0, 0.0, 0.015625])
    fs('MUL TEMP[0].x, IN[0].xxxx, %s.xxxx' % k)
    fs('FLR TEMP[0].x, TEMP[0].xxxx')
    fs('MOV TEMP[1], %s.zzzz' % k)                 # i, sum
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx')
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('ADD TEMP[1].y, TEMP[1].yyyy, TEMP[1].xxxx')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('ENDLOOP')
    fs('MUL TEMP[3].x, TEMP[1].yyyy, %s.wwww' % k)   # sum / 64
    fs('MUL TEMP[3].y, TEMP[1].xxxx, %s.wwww' % k)
    fs('MOV TEMP[3].zw, %s.zzzy' % k)
    fs('MOV OUT[0], TEMP[3]')
    pts = [(5, 125), (40, 125), (70, 125), (100, 125), (140, 125), (170, 125), (200, 125), (245, 125)]
    files.append(tgsi_test('cf-loop-sum', 'BGNLOOP/BRK counted loop: sum of i for i < floor(8 v.x), so\n'
                           'each eighth of the window runs a different trip count.\n'
                           'Red = sum / 64, green = final counter / 64.', std_vs(), fs, pts))

    fs = std_fs()
    fs.decl('TEMP[0..3]')
    k = fs.imm([10.0, 1.0, 2.0, 0.015625])
    z = fs.imm([0.0, 0.5, 0.0, 0.0])
    fs('MOV TEMP[1], %s.xxxx' % z)          # i, sum, count
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s.xxxx' % k)
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('MOV TEMP[2].y, TEMP[1].xxxx')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('MUL TEMP[2].z, TEMP[2].yyyy, %s.yyyy' % z)   # i / 2
    fs('FRC TEMP[2].w, TEMP[2].zzzz')
    fs('IF TEMP[2].wwww')                            # odd: skip
    fs('CONT')
    fs('ENDIF')
    fs('ADD TEMP[1].y, TEMP[1].yyyy, TEMP[2].yyyy')
    fs('ADD TEMP[1].z, TEMP[1].zzzz, %s.yyyy' % k)
    fs('ENDLOOP')
    fs('MUL TEMP[3], TEMP[1], %s.wwww' % k)
    fs('MOV TEMP[3].w, %s.yyyy' % k)
    fs('MOV OUT[0], TEMP[3]')
    files.append(tgsi_test('cf-loop-cont', 'CONT skips odd i: sum of even i < 10 = 20, 5 of 10\n'
                           'iterations counted; (counter, sum, count) / 64.', std_vs(), fs, 'all'))

    fs = std_fs()
    fs.decl('TEMP[0..3]')
    k = fs.imm([0.5, 1.0, 0.0, 0.0625])
    n = fs.imm([4.0, 6.0, 0.75, 2.0])
    fs('MOV TEMP[1], %s.zzzz' % k)
    fs('SLT TEMP[0].x, %s.xxxx, IN[0].yyyy' % k)
    fs('IF TEMP[0].xxxx')
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s.xxxx' % n)
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('ADD TEMP[1].y, TEMP[1].yyyy, TEMP[1].xxxx')
    fs('ENDLOOP')
    fs('ELSE')
    fs('MOV TEMP[1].y, %s.yyyy' % k)
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s.yyyy' % n)
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('MUL TEMP[1].y, TEMP[1].yyyy, %s.wwww' % n)
    fs('ENDLOOP')
    fs('ENDIF')
    fs('MUL TEMP[3].xy, TEMP[1].xyyy, %s.wwww' % k)
    fs('MOV TEMP[3].z, TEMP[0].xxxx')
    fs('MOV TEMP[3].w, %s.yyyy' % k)
    fs('MOV OUT[0], TEMP[3]')
    files.append(tgsi_test('cf-loop-in-if', 'Different loops in the two arms of an IF: top half sums\n'
                           '1..4 (= 10), bottom half doubles 1 six times (= 64).\n'
                           'Shows (counter, accumulator) / 16 and which arm ran.',
                           std_vs(), fs, [(30, 30), (200, 60), (30, 200), (220, 220)]))

    fs = std_fs()
    fs.decl('TEMP[0..3]')
    k = fs.imm([8.0, 1.0, 0.0, 0.03125])
    fs('MUL TEMP[0].x, IN[0].xxxx, %s.xxxx' % k)   # threshold 0..8
    fs('MOV TEMP[1], %s.zzzz' % k)
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s.xxxx' % k)
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('SLT TEMP[2].y, TEMP[1].xxxx, TEMP[0].xxxx')
    fs('IF TEMP[2].yyyy')
    fs('ADD TEMP[1].y, TEMP[1].yyyy, %s.yyyy' % k)
    fs('ELSE')
    fs('ADD TEMP[1].z, TEMP[1].zzzz, TEMP[1].xxxx')
    fs('ENDIF')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('ENDLOOP')
    fs('MUL TEMP[3], TEMP[1], %s.wwww' % k)
    fs('MOV TEMP[3].w, %s.yyyy' % k)
    fs('MOV OUT[0], TEMP[3]')
    pts = [(10, 10), (50, 100), (90, 30), (120, 240), (160, 160), (190, 10), (230, 90), (249, 249)]
    files.append(tgsi_test('cf-if-in-loop', 'IF/ELSE inside an 8-iteration loop, condition i < 8 v.x:\n'
                           'green counts iterations below the threshold, blue sums the others.',
                           std_vs(), fs, pts))

    fs = std_fs()
    fs.decl('TEMP[0..3]')
    k = fs.imm([4.0, 1.0, 0.0, 0.0078125])
    fs('MOV TEMP[1], %s.zzzz' % k)          # x = i, y = sum, z = j
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s.xxxx' % k)
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('MOV TEMP[1].z, %s.zzzz' % k)
    fs('BGNLOOP')
    fs('SLT TEMP[2].y, TEMP[1].xxxx, TEMP[1].zzzz')
    fs('IF TEMP[2].yyyy')
    fs('BRK')
    fs('ENDIF')
    fs('MAD TEMP[1].y, TEMP[1].xxxx, TEMP[1].zzzz, TEMP[1].yyyy')
    fs('ADD TEMP[1].y, TEMP[1].yyyy, %s.yyyy' % k)
    fs('ADD TEMP[1].z, TEMP[1].zzzz, %s.yyyy' % k)
    fs('ENDLOOP')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % k)
    fs('ENDLOOP')
    fs('MUL TEMP[3], TEMP[1], %s.wwww' % k)
    fs('MOV TEMP[3].w, %s.yyyy' % k)
    fs('MOV OUT[0], TEMP[3]')
    files.append(tgsi_test('cf-nested-loops', 'Nested loops, the inner one broken when j > i:\n'
                           'sum over 0 <= j <= i < 4 of (i*j + 1) = 35; shows (i, sum, j) / 128.',
                           std_vs(), fs, 'all'))

    # Integer loop with UIF and integer counter.
    fs = std_fs()
    fs.decl('TEMP[0..3]')
    ki = fs.imm([0, 1, 7, 3], 'UINT32')
    fs('MOV TEMP[1], %s.xxxx' % ki)
    fs('BGNLOOP')
    fs('USGE TEMP[2].x, TEMP[1].xxxx, %s.zzzz' % ki)
    fs('UIF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('UMAD TEMP[1].y, TEMP[1].yyyy, %s.wwww, TEMP[1].xxxx' % ki)  # y = 3y + i
    fs('AND TEMP[1].y, TEMP[1].yyyy, %s' % fs.imm([255, 255, 255, 255], 'UINT32'))
    fs('UADD TEMP[1].x, TEMP[1].xxxx, %s.yyyy' % ki)
    fs('ENDLOOP')
    fs('U2F TEMP[3], TEMP[1]')
    fs('MUL TEMP[3], TEMP[3], %s' % fs.imm([1.0 / 16, 1.0 / 256, 0.0, 0.0]))
    fs('MOV TEMP[3].zw, %s.xxxx' % fs.imm([1.0, 0.0, 0.0, 0.0]))
    fs('MOV OUT[0], TEMP[3]')
    files.append(tgsi_test('cf-loop-int', 'Loop with an integer counter, USGE/UIF exit and UMAD\n'
                           'accumulation y = (3y + i) & 255 for i < 7.', std_vs(), fs, 'all'))

    # KILL inside IF, and KILL_IF on a per-pixel value.
    fs = std_fs()
    fs.decl('TEMP[0]')
    k = fs.imm([0.5, 0.25, 1.0, 0.0])
    fs('SLT TEMP[0].x, IN[0].xxxx, %s.xxxx' % k)
    fs('IF TEMP[0].xxxx')
    fs('SLT TEMP[0].y, IN[0].yyyy, %s.xxxx' % k)
    fs('IF TEMP[0].yyyy')
    fs('KILL')
    fs('ENDIF')
    fs('ENDIF')
    fs('MOV OUT[0], %s.wzyw' % k)
    files.append(tgsi_test('cf-kill', 'KILL inside nested IFs discards the bottom-left quarter; the\n'
                           'clear colour must survive there.', std_vs(), fs,
                           [(30, 30), (100, 100), (30, 200), (200, 30), (200, 200)],
                           clear=(0.2, 0.4, 0.6, 0.8)))

    fs = std_fs()
    fs.decl('TEMP[0]')
    k = fs.imm([0.75, 0.25, 0.5, 1.0])
    fs('ADD TEMP[0].x, IN[0].xxxx, -%s.xxxx' % k)     # x - 0.75
    fs('ADD TEMP[0].y, %s.yyyy, -IN[0].yyyy' % k)     # 0.25 - y
    fs('MOV TEMP[0].zw, -%s.zzzw' % k)
    fs('KILL_IF -TEMP[0].xyzw')                        # killed if x > .75 or y < .25
    fs('MOV OUT[0], %s.zwyw' % k)
    files.append(tgsi_test('cf-kill-if', 'KILL_IF kills when any component is negative:\n'
                           '-(x - 0.75) < 0 for x > 0.75, -(0.25 - y) < 0 for y < 0.25,\n'
                           'so only pixels with x <= 0.75 and y >= 0.25 survive.', std_vs(), fs,
                           [(30, 30), (150, 50), (220, 30), (30, 200), (150, 150), (220, 220)],
                           clear=(0.2, 0.4, 0.6, 0.8)))

    # Vertex shader control flow on constants (uniform for all vertices).
    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('CONST[0][0..1]')
    vs.decl('TEMP[0..2]')
    k = vs.imm([1.0, 0.0, 0.0625, 0.5])
    vs('MOV OUT[0], IN[0]')
    vs('MOV TEMP[1], %s.yyyy' % k)
    vs('BGNLOOP')
    vs('SGE TEMP[2].x, TEMP[1].xxxx, CONST[0][0].xxxx')
    vs('IF TEMP[2].xxxx')
    vs('BRK')
    vs('ENDIF')
    vs('SLT TEMP[2].y, TEMP[1].xxxx, CONST[0][0].yyyy')
    vs('IF TEMP[2].yyyy')
    vs('ADD TEMP[1].y, TEMP[1].yyyy, CONST[0][1].xxxx')
    vs('ELSE')
    vs('ADD TEMP[1].z, TEMP[1].zzzz, CONST[0][1].yyyy')
    vs('ENDIF')
    vs('ADD TEMP[1].x, TEMP[1].xxxx, %s.xxxx' % k)
    vs('ENDLOOP')
    vs('MUL OUT[1].xyz, TEMP[1], %s.zzzz' % k)
    vs('MOV OUT[1].w, %s.wwww' % k)
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    files.append(tgsi_test('cf-vs-loop-if', 'Vertex-shader loop with a trip count and an IF threshold\n'
                           'taken from constants: 6 iterations, the first 2 add 1.5, the\n'
                           'rest add 0.5; shows (i, sum1, sum2) / 16.', vs, fs, 'all',
                           consts={0: [6.0, 2.0, 0.0, 0.0], 1: [1.5, 0.5, 0.0, 0.0]}))
    return files


def indirect_tests():
    files = []
    # Fragment shader: per-pixel index into a TEMP array, read and write.
    fs = std_fs()
    fs.decl('TEMP[0..7], ARRAY(1)')
    fs.decl('TEMP[8..9]')
    fs.decl('ADDR[0]')
    for i in range(8):
        fs('MOV TEMP[%d], %s' % (i, fs.imm([0.0625 * i, 1.0 - 0.0625 * i, 0.125 * (i % 4), 1.0])))
    k = fs.imm([4.0, 0.25, 0.0, 0.0])
    fs('MUL TEMP[8].x, IN[0].xxxx, %s.xxxx' % k)     # 0..4 across the window
    fs('F2I TEMP[8].y, TEMP[8].xxxx')
    fs('UARL ADDR[0].x, TEMP[8].yyyy')
    fs('MOV TEMP[9], TEMP[ADDR[0].x+2](1)')           # element 2..5
    fs('MOV TEMP[ADDR[0].x+3](1).y, %s.yyyy' % k)      # overwrite element 3..6 .y
    fs('LRP TEMP[9].y, %s.xxxx, TEMP[9].yyyy, TEMP[5].yyyy' % fs.imm([0.5, 0.0, 0.0, 0.0]))
    fs('MOV OUT[0], TEMP[9]')
    files.append(tgsi_test('tgsi-indirect-temp-fs', 'UARL-indexed reads and writes of a TEMP array with a\n'
                           'per-pixel index floor(4 v.x): reads element idx+2, writes\n'
                           'element idx+3 .y, then averages in element 5 .y read directly.', std_vs(), fs,
                           [(20, 125), (80, 40), (140, 200), (230, 125)]))

    fs = std_fs()
    fs.decl('CONST[0][0..7]')
    fs.decl('TEMP[0..1]')
    fs.decl('ADDR[0]')
    k = fs.imm([4.0, -1.0, 0.0, 0.0])
    fs('MAD TEMP[0].x, IN[0].yyyy, %s.xxxx, %s.yyyy' % (k, k))   # -1 .. 3
    fs('ARL ADDR[0].x, TEMP[0].xxxx')                              # floor
    fs('MOV TEMP[1], CONST[0][ADDR[0].x+2]')
    fs('ADD TEMP[1].w, TEMP[1].wwww, CONST[0][ADDR[0].x+4].wwww')
    fs('MOV OUT[0], TEMP[1]')
    consts = {i: [0.125 * i, 0.875 - 0.125 * i, 0.5, 0.0625 * i] for i in range(8)}
    files.append(tgsi_test('tgsi-indirect-const-fs', 'ARL (floor) of a per-pixel value from -1 to 3, used to\n'
                           'index CONST[ADDR+2] and CONST[ADDR+4] set with `uniform`.', std_vs(), fs,
                           [(125, 10), (125, 80), (125, 140), (125, 200)], consts=consts))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('CONST[0][0..7]')
    vs.decl('TEMP[0..1]')
    vs.decl('ADDR[0]')
    vs('MOV OUT[0], IN[0]')
    vs('ARL ADDR[0].x, CONST[0][0].xxxx')            # 2.5 -> 2
    vs('MOV TEMP[0], CONST[0][ADDR[0].x+1]')          # CONST[3]
    vs('ARL ADDR[0].x, CONST[0][0].yyyy')             # -0.5 -> -1
    vs('ADD TEMP[0], TEMP[0], CONST[0][ADDR[0].x+6]')  # CONST[5]
    vs('MOV OUT[1], TEMP[0]')
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    consts = {0: [2.5, -0.5, 0.0, 0.0]}
    for i in range(1, 8):
        consts[i] = [0.0625 * i, 0.5 - 0.0625 * i, 0.03125 * i, 0.125]
    files.append(tgsi_test('tgsi-indirect-const-vs', 'Vertex shader ARL from constants: floor(2.5) = 2 reads\n'
                           'CONST[3]; floor(-0.5) = -1 reads CONST[-1+6] = CONST[5].', vs, fs, 'all',
                           consts=consts))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('TEMP[0..5], ARRAY(1)')
    vs.decl('TEMP[6..7]')
    vs.decl('ADDR[0]')
    vs('MOV OUT[0], IN[0]')
    ki = vs.imm([0, 1, 2, 3], 'INT32')
    for i in range(6):
        vs('MOV TEMP[%d], %s' % (i, vs.imm([0.125 * i, 0.0625 * i, 0.75 - 0.125 * i,
                                             0.25 + 0.125 * i])))
    vs('UARL ADDR[0].x, %s.zzzz' % ki)
    vs('MOV TEMP[6], TEMP[ADDR[0].x+1](1)')            # element 3
    vs('UARL ADDR[0].x, %s.wwww' % ki)
    vs('ADD TEMP[6].xy, TEMP[6].xyyy, TEMP[ADDR[0].x+2](1).xyyy')   # element 5
    vs('MOV OUT[1], TEMP[6]')
    vs('MOV OUT[1].w, TEMP[ADDR[0].x-3](1).wwww')       # element 0
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    files.append(tgsi_test('tgsi-indirect-temp-vs', 'UARL-indexed TEMP array reads in the vertex shader,\n'
                           'including a negative offset (ADDR-3).', vs, fs, 'all'))

    fs = std_fs()
    fs.decl('CONST[0][0..3]')
    fs('MAD OUT[0], CONST[0][0], CONST[0][1], CONST[0][2]')
    files.append(tgsi_test('tgsi-const-mad', 'Constants set with `uniform vec4`: CONST[0]*CONST[1]+CONST[2].',
                           std_vs(), fs, 'all',
                           consts={0: [0.5, 0.25, 2.0, 1.0], 1: [0.5, 2.0, 0.125, 0.5],
                                   2: [0.125, 0.25, 0.5, 0.25], 3: [9.0, 9.0, 9.0, 9.0]}))
    return files


def varying_tests():
    files = []
    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('OUT[2], GENERIC[5]')
    vs.decl('OUT[3], COLOR')
    vs.decl('OUT[4], COLOR[1]')
    vs.decl('OUT[5], TEXCOORD[2]')
    vs.decl('OUT[6], FOG')
    k = vs.imm([0.5, 0.25, 0.0, 1.0])
    vs('MOV OUT[0], IN[0]')
    vs('MAD OUT[1], IN[0].xyxy, %s.xxyy, %s.xxxx' % (k, k))        # (x/2+.5, y/2+.5, x/4+.5, y/4+.5)
    vs('MAD OUT[2], IN[0].yxzw, %s.yyzz, %s.xyxw' % (k, k))        # (y/4+.5, x/4+.25, .5, 1)
    vs('MOV OUT[3], %s' % vs.imm([0.25, 0.5, 0.75, 1.0]))
    vs('MAD OUT[4], -IN[0].xxyy, %s.yyyy, %s.xxxx' % (k, k))       # .5 - x/4 ...
    vs('MAD OUT[5], IN[0], %s.yyzz, %s.yyzw' % (k, k))             # (x/4+.25, y/4+.25, 0, 1)
    vs('MAD OUT[6], IN[0].xxxx, %s.yyyy, %s.xzzw' % (k, k))        # (x/4+.5, 0, 0, 1)
    fs = Tgsi('FRAG')
    fs.decl('IN[0], FOG, PERSPECTIVE')
    fs.decl('IN[1], TEXCOORD[2], PERSPECTIVE')
    fs.decl('IN[2], COLOR[1], COLOR')
    fs.decl('IN[3], COLOR, COLOR')
    fs.decl('IN[4], GENERIC[5], PERSPECTIVE')
    fs.decl('IN[5], GENERIC[0], PERSPECTIVE')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    fs('ADD TEMP[0].x, IN[5].zzzz, -IN[4].yyyy')     # .25 (from x terms) 
    fs('MUL TEMP[0].y, IN[1].yyyy, IN[3].yyyy')
    fs('ADD TEMP[0].z, IN[2].zzzz, IN[0].xxxx')
    fs('MAD TEMP[0].w, IN[1].xxxx, IN[3].zzzz, IN[5].yyyy')
    fs('MUL OUT[0], TEMP[0], %s' % fs.imm([1.0, 1.0, 0.5, 0.5]))
    files.append(tgsi_test('varying-semantics', 'Seven vertex outputs of different semantics (GENERIC[0],\n'
                           'GENERIC[5], COLOR, COLOR[1], TEXCOORD[2], FOG) declared in a\n'
                           'different order in the fragment shader: inputs must be matched by\n'
                           'semantic, not by index.', vs, fs,
                           [(10, 10), (240, 10), (10, 240), (240, 240), (125, 125), (60, 180)]))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('OUT[2], GENERIC[1]')
    vs.decl('OUT[3], GENERIC[2]')
    k = vs.imm([0.5, 0.25, 0.0, 1.0])
    vs('MOV OUT[0], IN[0]')
    vs('MAD OUT[1], IN[0], %s.xxzz, %s.xxzw' % (k, k))
    vs('MAD OUT[2], IN[0].yxzw, %s.yyzz, %s.xxzw' % (k, k))
    vs('MOV OUT[3], %s' % vs.imm([0.75, 0.125, 0.375, 1.0]))
    fs = Tgsi('FRAG')
    fs.decl('IN[0], GENERIC[0], LINEAR')
    fs.decl('IN[1], GENERIC[1], PERSPECTIVE, CENTROID')
    fs.decl('IN[2], GENERIC[2], CONSTANT')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    fs('MOV TEMP[0].xy, IN[0].xyyy')
    fs('MOV TEMP[0].z, IN[1].xxxx')
    fs('MOV TEMP[0].w, IN[2].xxxx')
    fs('MOV OUT[0], TEMP[0]')
    files.append(tgsi_test('varying-interp-modes', 'LINEAR, PERSPECTIVE+CENTROID and CONSTANT (flat)\n'
                           'interpolation of affine and constant varyings (w = 1, single sample).',
                           vs, fs, [(10, 10), (240, 10), (10, 240), (200, 100), (125, 125)]))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('IN[1]')
    vs.decl('IN[2]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], COLOR')
    vs.decl('OUT[2], GENERIC[0]')
    vs('MOV OUT[0], IN[0]')
    vs('MOV OUT[1], IN[1]')
    vs('MOV OUT[2], IN[2]')
    fs = Tgsi('FRAG')
    fs.decl('IN[0], COLOR, COLOR')
    fs.decl('IN[1], GENERIC[0], PERSPECTIVE')
    fs.decl('OUT[0], COLOR')
    fs('LRP OUT[0], %s, IN[0], IN[1]' % fs.imm([0.5, 0.5, 0.5, 0.5]))
    files.append(tgsi_test('vs-attrib-color-texcoord', 'Vertex inputs IN[1] (current colour) and IN[2]\n'
                           '(texcoord 0) set with `color` and `texcoord 0`, averaged.', vs, fs, 'all',
                           color=[0.25, 0.5, 1.0, 0.5], texcoords={0: [0.75, 0.0, 0.5, 1.0]}))

    fs = Tgsi('FRAG')
    fs.prop('FS_COORD_ORIGIN LOWER_LEFT')
    fs.prop('FS_COORD_PIXEL_CENTER HALF_INTEGER')
    fs.decl('IN[0], POSITION, LINEAR')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    k = fs.imm([0.004, 0.25, 0.0, 1.0])
    fs('FRC TEMP[0].x, IN[0].xxxx')
    fs('MUL TEMP[0].y, IN[0].xxxx, %s.xxxx' % k)
    fs('MUL TEMP[0].z, IN[0].yyyy, %s.xxxx' % k)
    fs('MAD TEMP[0].w, IN[0].zzzz, IN[0].wwww, %s.yyyy' % k)
    fs('MOV OUT[0], TEMP[0]')
    files.append(tgsi_test('frag-position', 'Fragment POSITION with lower-left origin and half-integer\n'
                           'centres: (frac(x) = 0.5, x/250, y/250, z*w + 0.25 = 0.75).', std_vs(), fs,
                           [(0, 0), (10, 200), (124, 124), (249, 3), (200, 249)]))

    # Derivatives of a known linear varying: v = (x+0.5)/250 so d/dx = 0.004.
    fs = std_fs()
    fs.decl('TEMP[0..1]')
    k = fs.imm([25.0, 0.5, 3.0, 1.0])
    fs('MUL TEMP[1], IN[0], %s.zzzz' % k)     # 3v: d = 0.012
    fs('DDX TEMP[0].x, IN[0].xxxx')
    fs('DDY TEMP[0].y, IN[0].yyyy')
    fs('DDX TEMP[0].z, TEMP[1].yyyy')
    fs('DDY TEMP[0].w, TEMP[1].yyyy')
    fs('MAD OUT[0], TEMP[0], %s.xxxx, %s.yyyy' % (k, k))
    files.append(tgsi_test('tgsi-ddx-ddy', 'DDX/DDY of v = window position / 250: d(v.x)/dx = d(v.y)/dy\n'
                           '= 0.004, d(3 v.y)/dx = 0, d(3 v.y)/dy = 0.012 (GL convention, y up);\n'
                           'shown as 25 d + 0.5.', std_vs(), fs, [(10, 10), (125, 125), (240, 30), (33, 201)]))
    return files


def generate():
    return chan_tests() + modifier_tests() + cf_tests() + indirect_tests() + varying_tests()


def extra_tests():
    files = []
    # RET inside an IF ends the shader for those pixels only; what was written stays.
    fs = std_fs()
    fs.decl('TEMP[0]')
    k = fs.imm([0.5, 0.25, 0.75, 1.0])
    fs('MOV OUT[0], %s.yyyw' % k)
    fs('SLT TEMP[0].x, IN[0].xxxx, %s.xxxx' % k)
    fs('IF TEMP[0].xxxx')
    fs('MOV OUT[0].x, %s.zzzz' % k)
    fs('RET')
    fs('ENDIF')
    fs('MOV OUT[0].y, %s.zzzz' % k)
    fs('SLT TEMP[0].y, IN[0].yyyy, %s.xxxx' % k)
    fs('IF TEMP[0].yyyy')
    fs('RET')
    fs('ENDIF')
    fs('MOV OUT[0].z, %s.xxxx' % k)
    files.append(tgsi_test('cf-ret', 'RET inside IF ends the shader for the left half (red 0.75);\n'
                           'the right half continues (green 0.75), and a second RET stops the\n'
                           'bottom-right quarter before blue is set.', std_vs(), fs,
                           [(30, 30), (30, 200), (200, 30), (200, 200)]))

    fs = std_fs()
    fs.decl('TEMP[0..2]')
    k = fs.imm([1.0, 0.0, 0.0625, 16.0])
    fs('MUL TEMP[0].x, IN[0].xxxx, %s.wwww' % k)       # limit 0..16
    fs('MOV TEMP[1], %s.yyyy' % k)
    fs('BGNLOOP')
    fs('SLT TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx')
    fs('IF TEMP[2].xxxx')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.xxxx' % k)
    fs('ELSE')
    fs('BRK')
    fs('ENDIF')
    fs('ENDLOOP')
    fs('MUL TEMP[1].x, TEMP[1].xxxx, %s.zzzz' % k)
    fs('MOV TEMP[1].yzw, %s.yyyx' % k)
    fs('MOV OUT[0], TEMP[1]')
    files.append(tgsi_test('cf-brk-in-else', 'BRK in the ELSE arm: count up while i < 16 v.x, so the result\n'
                           'is ceil(16 v.x) / 16 per pixel.', std_vs(), fs,
                           [(3, 3), (40, 100), (100, 10), (170, 220), (248, 248)]))

    fs = std_fs()
    fs.decl('TEMP[0..2]')
    k = fs.imm([1.0, 0.0, 0.125, 0.625])
    fs('MOV TEMP[1], %s.yyyy' % k)
    fs('BGNLOOP')
    fs('SGE TEMP[2].x, TEMP[1].xxxx, %s' % fs.imm([6.0] * 4))
    fs('IF TEMP[2].xxxx')
    fs('BRK')
    fs('ENDIF')
    fs('MUL TEMP[0].x, TEMP[1].xxxx, %s.zzzz' % k)       # i / 8
    fs('ADD TEMP[0].x, -TEMP[0].xxxx, -IN[0].xxxx')       # -i/8 - v.x
    fs('ADD TEMP[0].x, TEMP[0].xxxx, %s' % fs.imm([0.8] * 4))
    fs('KILL_IF TEMP[0].xxxx')
    fs('ADD TEMP[1].x, TEMP[1].xxxx, %s.xxxx' % k)
    fs('ENDLOOP')
    fs('MOV OUT[0], %s.yxwx' % k)
    files.append(tgsi_test('cf-kill-in-loop', 'KILL_IF inside a 6-iteration loop: a pixel dies in the first\n'
                           'iteration with 0.8 - i/8 - v.x < 0, at different iterations for\n'
                           'different pixels; only v.x <= 0.175 survives all 6 and writes green.',
                           std_vs(), fs, [(10, 10), (40, 100), (60, 200), (100, 200), (160, 100),
                                          (180, 30), (230, 230)],
                           clear=(0.2, 0.4, 0.6, 0.8)))

    # Mesa's glsl_to_tgsi writes float constants as UINT32 bit patterns.
    fs = std_fs()
    fs.decl('TEMP[0]')
    fl = fs.imm([0x3e800000, 0x3f000000, 0xbe000000, 0x40000000], 'UINT32')   # .25 .5 -.125 2
    ni = fs.imm([-3, 5, -1, 7], 'INT32')
    fs('MUL TEMP[0], %s, %s.wwww' % (fl, fl))                  # (.5, 1, -.25, 4)
    fs('I2F TEMP[0].w, %s.xxxx' % ni)                          # -3
    fs('MAD OUT[0], TEMP[0], %s.xxxx, %s.yyyy' % (fl, fl))
    files.append(tgsi_test('tgsi-imm-types', 'Float arithmetic on UINT32 immediates holding float bits (as\n'
                           'Mesa emits them) and I2F of a negative INT32 immediate.', std_vs(), fs, 'all'))

    fs = std_fs()
    fs.decl('TEMP[0]')
    k = fs.imm([25.0, 0.5, 3.0, -2.0])
    fs('MUL TEMP[0], IN[0], %s.zwzw' % k)                     # (3x, -2y, 0, -2)
    fs('DDX_FINE TEMP[0].x, TEMP[0].xxxx')
    fs('DDY_FINE TEMP[0].y, TEMP[0].yyyy')
    fs('DDX_FINE TEMP[0].z, IN[0].yyyy')
    fs('DDY_FINE TEMP[0].w, IN[0].xxxx')
    fs('MAD OUT[0], TEMP[0], %s.xxxx, %s.yyyy' % (k, k))
    files.append(tgsi_test('tgsi-ddx-ddy-fine', 'DDX_FINE/DDY_FINE of 3 v.x (0.012), -2 v.y (-0.008) and the\n'
                           'cross terms (0); shown as 25 d + 0.5.', std_vs(), fs,
                           [(10, 10), (11, 11), (125, 124), (240, 31)]))
    return files


def face_test():
    from common import write_test, tgsi_requirements, fmt_val
    fs = Tgsi('FRAG')
    fs.decl('IN[0], GENERIC[0], PERSPECTIVE')
    fs.decl('IN[1], FACE, CONSTANT')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    k = fs.imm([0.25, 0.5, 0.0, 1.0])
    fs('MAD TEMP[0].x, IN[1].xxxx, %s.xxxx, %s.yyyy' % (k, k))
    fs('MOV TEMP[0].y, IN[0].xxxx')
    fs('MOV TEMP[0].zw, %s.zzzw' % k)
    fs('MOV OUT[0], TEMP[0]')
    vs = std_vs()

    def p(x, y, face):
        col = (face * 0.25 + 0.5, (x + 0.5) / 250.0, 0.0, 1.0)
        return 'probe rgba %d %d %s' % (x, y, ' '.join(fmt_val(c) for c in col))
    cmds = ['clear color 0 0 0 0', 'clear',
            'draw rect -1 -1 1 2',        # counter-clockwise: front facing
            'draw rect 1 -1 -1 2',        # negative width mirrors it: back facing
            p(20, 20, 1), p(100, 200, 1), p(150, 20, -1), p(240, 240, -1)]
    return write_test('tgsi-face', 'FACE input: +1 for the counter-clockwise (front-facing) left\n'
                      'rectangle, -1 for the right one drawn with a negative width, which\n'
                      'reverses its winding; red = 0.25 face + 0.5, green = v.x.',
                      [('require', tgsi_requirements([vs, fs])),
                       ('vertex shader tgsi', vs.text()), ('fragment shader tgsi', fs.text())], cmds)


def raster_tests():
    from common import write_test, tgsi_requirements, fmt_val
    files = []

    def emit(name, comment, vs, fs, probes, cmds=None):
        lines = ['clear color 0 0 0 0', 'clear'] + (cmds or ['draw rect -1 -1 2 2'])
        for (x, y), col in probes:
            lines.append('probe rgba %d %d %s' % (x, y, ' '.join(fmt_val(c) for c in col)))
        return write_test(name, comment, [('require', tgsi_requirements([vs, fs])),
                                          ('vertex shader tgsi', vs.text()),
                                          ('fragment shader tgsi', fs.text())], lines)

    # TGSI's default origin is the upper left: y counts down from the top edge.
    fs = Tgsi('FRAG')
    fs.decl('IN[0], POSITION, LINEAR')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    k = fs.imm([0.004, 0.0, 0.0, 1.0])
    fs('MUL TEMP[0].xy, IN[0].xyyy, %s.xxxx' % k)
    fs('FRC TEMP[0].z, IN[0].yyyy')
    fs('MOV TEMP[0].w, %s.wwww' % k)
    fs('MOV OUT[0], TEMP[0]')
    pts = [(0, 0), (10, 200), (124, 124), (249, 3), (200, 249)]
    files.append(emit('frag-position-upper-left', 'Fragment POSITION without FS_COORD_ORIGIN uses TGSI\'s default\n'
                      'upper-left origin: y = 250 - (GL y + 0.5), so the bottom row reads\n'
                      '249.5.  Shows (x / 250, y / 250, frac(y), 1).', std_vs(), fs,
                      [((x, y), ((x + 0.5) / 250, (249.5 - y) / 250, 0.5, 1.0)) for x, y in pts]))

    fs = Tgsi('FRAG')
    fs.prop('FS_COORD_ORIGIN LOWER_LEFT')
    fs.prop('FS_COORD_PIXEL_CENTER INTEGER')
    fs.decl('IN[0], POSITION, LINEAR')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    k = fs.imm([0.004, 0.25, 0.5, 1.0])
    fs('MUL TEMP[0].xy, IN[0].xyyy, %s.xxxx' % k)
    fs('FRC TEMP[0].z, IN[0].xxxx')
    fs('ADD TEMP[0].z, TEMP[0].zzzz, %s.yyyy' % k)
    fs('MOV TEMP[0].w, %s.wwww' % k)
    fs('MOV OUT[0], TEMP[0]')
    files.append(emit('frag-position-integer-center', 'FS_COORD_PIXEL_CENTER INTEGER: pixel centres at whole\n'
                      'numbers, so frac(x) = 0.  Shows (x / 250, y / 250, frac(x) + 0.25, 1).',
                      std_vs(), fs, [((x, y), (x / 250, y / 250, 0.25, 1.0)) for x, y in pts]))

    # Perspective: clip w = 1.5 + 0.5 x (1 at the left edge, 2 at the right),
    # position (x w, y w, 0, w) keeps the rectangle on the whole window.
    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('OUT[2], GENERIC[1]')
    vs.decl('OUT[3], COLOR')
    vs.decl('TEMP[0]')
    k = vs.imm([0.5, 1.5, 0.0, 1.0])
    vs('MAD TEMP[0].x, IN[0].xxxx, %s.xxxx, %s.yyyy' % (k, k))       # w
    vs('MUL OUT[0].xy, IN[0].xyyy, TEMP[0].xxxx')
    vs('MOV OUT[0].z, %s.zzzz' % k)
    vs('MOV OUT[0].w, TEMP[0].xxxx')
    vs('MAD TEMP[0].y, IN[0].xxxx, %s.xxxx, %s.xxxx' % (k, k))       # a = (x + 1) / 2
    vs('MOV OUT[1], TEMP[0].yyyy')
    vs('MOV OUT[2], TEMP[0].yyyy')
    vs('MOV OUT[3], TEMP[0].yyyw')
    fs = Tgsi('FRAG')
    fs.decl('IN[0], GENERIC[0], PERSPECTIVE')
    fs.decl('IN[1], GENERIC[1], LINEAR')
    fs.decl('IN[2], COLOR, COLOR')
    fs.decl('OUT[0], COLOR')
    fs.decl('TEMP[0]')
    fs('MOV TEMP[0].x, IN[0].xxxx')
    fs('MOV TEMP[0].y, IN[1].xxxx')
    fs('MOV TEMP[0].z, IN[2].xxxx')
    fs('MOV TEMP[0].w, %s' % fs.imm([1.0, 1.0, 1.0, 1.0]))
    fs('MOV OUT[0], TEMP[0]')

    def persp(x):
        t = (x + 0.5) / 250.0          # screen-space position across the window
        # a is 0 where w = 1 and 1 where w = 2: perspective-correct a = (t / 2) / ((1 - t) + t / 2)
        return t / (2.0 - t), t
    probes = []
    for x, y in [(0, 10), (50, 100), (125, 200), (200, 30), (249, 249)]:
        p, l = persp(x)
        probes.append(((x, y), (p, l, p, 1.0)))
    files.append(emit('varying-perspective', 'Perspective-correct interpolation: clip w runs from 1 (left) to\n'
                      '2 (right) and a varying from 0 to 1.  At screen fraction t,\n'
                      'PERSPECTIVE and COLOR give t / (2 - t), LINEAR gives t.', vs, fs, probes))
    return files


def vs_divergent_tests():
    files = []
    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('TEMP[0..1]')
    k = vs.imm([0.0, 0.25, 0.75, 1.0])
    vs('MOV OUT[0], IN[0]')
    vs('SLT TEMP[0].x, %s.xxxx, IN[0].xxxx' % k)        # right-hand vertices
    vs('SLT TEMP[0].y, IN[0].yyyy, %s.xxxx' % k)        # bottom vertices
    vs('IF TEMP[0].xxxx')
    vs('MOV TEMP[1], %s.zyxw' % k)
    vs('IF TEMP[0].yyyy')
    vs('MOV TEMP[1].z, %s.wwww' % k)
    vs('ENDIF')
    vs('ELSE')
    vs('MOV TEMP[1], %s.yzzw' % k)
    vs('ENDIF')
    vs('MOV OUT[1], TEMP[1]')
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    files.append(tgsi_test('vs-divergent-if', 'Vertex-shader IF/ELSE that differs per vertex (x > 0, then\n'
                           'y < 0): the four corners get different colours, which the\n'
                           'rasterizer interpolates over the two triangles.', vs, fs,
                           [(10, 10), (230, 40), (30, 200), (240, 240), (60, 120), (200, 150)],
                           corner_interp=True))

    vs = Tgsi('VERT')
    vs.decl('IN[0]')
    vs.decl('OUT[0], POSITION')
    vs.decl('OUT[1], GENERIC[0]')
    vs.decl('TEMP[0..2]')
    k = vs.imm([1.0, 0.0, 2.5, 0.03125])
    vs('MOV OUT[0], IN[0]')
    vs('MAD TEMP[0].x, IN[0].xxxx, %s.zzzz, %s.zzzz' % (k, k))
    vs('ADD TEMP[0].x, TEMP[0].xxxx, IN[0].yyyy')
    vs('ADD TEMP[0].x, TEMP[0].xxxx, %s.xxxx' % k)              # 2.5 x + y + 3.5: 0, 5, 2, 7
    vs('MOV TEMP[1], %s.yyyy' % k)
    vs('BGNLOOP')
    vs('SGE TEMP[2].x, TEMP[1].xxxx, TEMP[0].xxxx')
    vs('IF TEMP[2].xxxx')
    vs('BRK')
    vs('ENDIF')
    vs('ADD TEMP[1].y, TEMP[1].yyyy, TEMP[1].xxxx')
    vs('ADD TEMP[1].x, TEMP[1].xxxx, %s.xxxx' % k)
    vs('ENDLOOP')
    vs('MUL OUT[1].xy, TEMP[1].xyyy, %s.wwww' % k)
    vs('MOV OUT[1].zw, %s.yyyx' % k)
    fs = std_fs()
    fs('MOV OUT[0], IN[0]')
    files.append(tgsi_test('vs-divergent-loop', 'Vertex-shader loop whose trip count differs per corner\n'
                           '(0, 5, 2, 7 for bottom-left, bottom-right, top-left, top-right):\n'
                           '(count, sum of 0..count-1) / 32 interpolated over the triangles.', vs, fs,
                           [(10, 10), (230, 40), (30, 200), (240, 240), (60, 120), (200, 150)],
                           corner_interp=True))
    return files


_generate_base = generate


def generate():  # noqa: F811
    return _generate_base() + extra_tests() + [face_test()] + raster_tests() + vs_divergent_tests()
