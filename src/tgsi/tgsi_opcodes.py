# The TGSI opcode set sbcc understands, described once.
#
# Every table that needs TGSI opcodes (the IR enum, the text parser's name
# lookup, the printer, the interpreter's dispatch checks) is generated from this
# list by gen_tgsi_opcodes.py at build time.
#
# Columns:
#   name     mnemonic as tgsi_dump prints it
#   dst      number of destination operands
#   src      number of source operands
#   mode     'comp'  component-wise: dst.c = f(src0.c, src1.c, ...)
#            'repl'  scalar result replicated to every written channel
#            'chan'  each channel computed by its own rule (LIT, DST, ...)
#            'none'  no value result (control flow, KILL, ...)
#   type     operand type of sources: f32, i32, u32 or 'any' (bit moves)
#   flags    subset of: branch (control flow), tex (texture instruction),
#            kill, address (writes an address register),
#            quad (reads other lanes of its 2x2 quad: derivatives and
#            implicit-LOD sampling)

OPCODES = [
    # name        dst src mode    type   flags
    ("ARL",       1, 1, "comp", "f32", "address"),
    ("UARL",      1, 1, "comp", "i32", "address"),
    ("MOV",       1, 1, "comp", "any", ""),
    ("LIT",       1, 1, "chan", "f32", ""),
    ("RCP",       1, 1, "repl", "f32", ""),
    ("RSQ",       1, 1, "repl", "f32", ""),
    ("SQRT",      1, 1, "repl", "f32", ""),
    ("EXP",       1, 1, "chan", "f32", ""),
    ("LOG",       1, 1, "chan", "f32", ""),
    ("EX2",       1, 1, "repl", "f32", ""),
    ("LG2",       1, 1, "repl", "f32", ""),
    ("POW",       1, 2, "repl", "f32", ""),
    ("COS",       1, 1, "repl", "f32", ""),
    ("SIN",       1, 1, "repl", "f32", ""),
    ("MUL",       1, 2, "comp", "f32", ""),
    ("ADD",       1, 2, "comp", "f32", ""),
    ("MAD",       1, 3, "comp", "f32", ""),
    ("FMA",       1, 3, "comp", "f32", ""),
    ("LRP",       1, 3, "comp", "f32", ""),
    ("DP2",       1, 2, "repl", "f32", ""),
    ("DP3",       1, 2, "repl", "f32", ""),
    ("DP4",       1, 2, "repl", "f32", ""),
    ("DPH",       1, 2, "repl", "f32", ""),
    ("DST",       1, 2, "chan", "f32", ""),
    ("MIN",       1, 2, "comp", "f32", ""),
    ("MAX",       1, 2, "comp", "f32", ""),
    ("FRC",       1, 1, "comp", "f32", ""),
    ("FLR",       1, 1, "comp", "f32", ""),
    ("CEIL",      1, 1, "comp", "f32", ""),
    ("TRUNC",     1, 1, "comp", "f32", ""),
    ("ROUND",     1, 1, "comp", "f32", ""),
    ("SSG",       1, 1, "comp", "f32", ""),
    ("ABS",       1, 1, "comp", "f32", ""),
    ("DDX",       1, 1, "comp", "f32", "quad"),
    ("DDY",       1, 1, "comp", "f32", "quad"),
    ("DDX_FINE",  1, 1, "comp", "f32", "quad"),
    ("DDY_FINE",  1, 1, "comp", "f32", "quad"),
    ("LDEXP",     1, 2, "comp", "f32", ""),
    # float compares producing 1.0/0.0
    ("SLT",       1, 2, "comp", "f32", ""),
    ("SGE",       1, 2, "comp", "f32", ""),
    ("SEQ",       1, 2, "comp", "f32", ""),
    ("SNE",       1, 2, "comp", "f32", ""),
    ("SGT",       1, 2, "comp", "f32", ""),
    ("SLE",       1, 2, "comp", "f32", ""),
    # float compares producing ~0/0
    ("FSLT",      1, 2, "comp", "f32", ""),
    ("FSGE",      1, 2, "comp", "f32", ""),
    ("FSEQ",      1, 2, "comp", "f32", ""),
    ("FSNE",      1, 2, "comp", "f32", ""),
    # selects
    ("CMP",       1, 3, "comp", "f32", ""),
    ("UCMP",      1, 3, "comp", "u32", ""),
    # conversions
    ("F2I",       1, 1, "comp", "f32", ""),
    ("F2U",       1, 1, "comp", "f32", ""),
    ("I2F",       1, 1, "comp", "i32", ""),
    ("U2F",       1, 1, "comp", "u32", ""),
    # integer arithmetic
    ("UADD",      1, 2, "comp", "u32", ""),
    ("UMUL",      1, 2, "comp", "u32", ""),
    ("UMAD",      1, 3, "comp", "u32", ""),
    ("UDIV",      1, 2, "comp", "u32", ""),
    ("UMOD",      1, 2, "comp", "u32", ""),
    ("IDIV",      1, 2, "comp", "i32", ""),
    ("MOD",       1, 2, "comp", "i32", ""),
    ("IMUL_HI",   1, 2, "comp", "i32", ""),
    ("UMUL_HI",   1, 2, "comp", "u32", ""),
    ("INEG",      1, 1, "comp", "i32", ""),
    ("IABS",      1, 1, "comp", "i32", ""),
    ("ISSG",      1, 1, "comp", "i32", ""),
    ("IMAX",      1, 2, "comp", "i32", ""),
    ("IMIN",      1, 2, "comp", "i32", ""),
    ("UMAX",      1, 2, "comp", "u32", ""),
    ("UMIN",      1, 2, "comp", "u32", ""),
    # integer compares producing ~0/0
    ("ISLT",      1, 2, "comp", "i32", ""),
    ("ISGE",      1, 2, "comp", "i32", ""),
    ("USLT",      1, 2, "comp", "u32", ""),
    ("USGE",      1, 2, "comp", "u32", ""),
    ("USEQ",      1, 2, "comp", "u32", ""),
    ("USNE",      1, 2, "comp", "u32", ""),
    # bit operations
    ("NOT",       1, 1, "comp", "u32", ""),
    ("AND",       1, 2, "comp", "u32", ""),
    ("OR",        1, 2, "comp", "u32", ""),
    ("XOR",       1, 2, "comp", "u32", ""),
    ("SHL",       1, 2, "comp", "u32", ""),
    ("ISHR",      1, 2, "comp", "i32", ""),
    ("USHR",      1, 2, "comp", "u32", ""),
    ("IBFE",      1, 3, "comp", "i32", ""),
    ("UBFE",      1, 3, "comp", "u32", ""),
    ("BFI",       1, 4, "comp", "u32", ""),
    ("BREV",      1, 1, "comp", "u32", ""),
    ("POPC",      1, 1, "comp", "u32", ""),
    ("LSB",       1, 1, "comp", "u32", ""),
    ("IMSB",      1, 1, "comp", "i32", ""),
    ("UMSB",      1, 1, "comp", "u32", ""),
    # texture
    ("TEX",       1, 2, "chan", "f32", "tex quad"),
    ("TXP",       1, 2, "chan", "f32", "tex quad"),
    ("TXB",       1, 2, "chan", "f32", "tex quad"),
    ("TXL",       1, 2, "chan", "f32", "tex"),
    ("TXD",       1, 4, "chan", "f32", "tex"),
    ("TXF",       1, 2, "chan", "i32", "tex"),
    ("TXQ",       1, 2, "chan", "i32", "tex"),
    ("TEX_LZ",    1, 2, "chan", "f32", "tex"),
    ("TXF_LZ",    1, 2, "chan", "i32", "tex"),
    ("TEX2",      1, 3, "chan", "f32", "tex quad"),
    ("TXB2",      1, 3, "chan", "f32", "tex quad"),
    ("TXL2",      1, 3, "chan", "f32", "tex"),
    # fragment kill
    ("KILL",      0, 0, "none", "f32", "kill"),
    ("KILL_IF",   0, 1, "none", "f32", "kill"),
    # control flow
    ("IF",        0, 1, "none", "f32", "branch"),
    ("UIF",       0, 1, "none", "u32", "branch"),
    ("ELSE",      0, 0, "none", "any", "branch"),
    ("ENDIF",     0, 0, "none", "any", "branch"),
    ("BGNLOOP",   0, 0, "none", "any", "branch"),
    ("ENDLOOP",   0, 0, "none", "any", "branch"),
    ("BRK",       0, 0, "none", "any", "branch"),
    ("CONT",      0, 0, "none", "any", "branch"),
    ("RET",       0, 0, "none", "any", "branch"),
    ("END",       0, 0, "none", "any", "branch"),
    ("NOP",       0, 0, "none", "any", ""),
]
