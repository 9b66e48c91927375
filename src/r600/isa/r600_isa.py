# The r600-family ISA (R600, R700, Evergreen, Cayman), described once.
#
# gen_r600_isa.py turns this into C++ (opcode enums, info tables, bit-field
# layouts, name tables) at build time; nothing here is written again by hand.
# Facts come from the AMD ISA documents as reflected in Mesa's r600 driver
# (r600_isa.[ch], r600d.h, evergreend.h, r600_asm.c, sb/) and were checked
# against real Mesa encodings in ../shared/corpus/r600-bc.
#
# Chip classes, in order.  Column tuples below are indexed by this order.
CHIPS = ["R600", "R700", "EVERGREEN", "CAYMAN"]

# ---------------------------------------------------------------------------
# ALU instructions.
#
#   name   mnemonic (Mesa's names, so listings compare directly)
#   nsrc   number of source operands; nsrc == 3 means the OP3 encoding
#   opc    (opcode on R600/R700, opcode on Evergreen/Cayman); None = absent.
#          OP2 opcodes live in ALU_WORD1_OP2.ALU_INST, OP3 in ALU_WORD1_OP3.
#   slots  allowed slots per chip class (R600 R700 EG CM), one token each:
#            VS  any slot (x y z w, or t)
#            V   vector slots x y z w only
#            S   trans slot only (R600-EG); on Cayman, which has no trans
#                unit, an S op is issued in x, y and z (and optionally w)
#                with the result replicated
#            4V  reduction over all four vector slots (DOT4, CUBE, MAX4,
#                Cayman MULLO_INT & co)
#            XY  vector slots x/y pair, ZW z/w pair (INTERP_X/Z)
#            -   not available on this chip
#   flags  space separated:
#            comm assoc      src0/src1 commutative / associative
#            ieee            IEEE semantics (0*inf = NaN, denorms)
#            dx10            DX10 variant (NaN-aware min/max, int results)
#            set pred pred_push kill cmov
#                            compare kinds: SETcc writes a value, PRED_SET*
#                            writes the predicate and may update the exec
#                            mask, _PUSH also pushes, KILL kills pixels,
#                            CND* selects
#            cc_e cc_gt cc_ge cc_ne cc_lt cc_le   condition of the compare
#            int_cmp uint_cmp                     compare operand type
#            int_dst uint_dst                     result type (default float)
#            mova            writes the address register (AR / CF_IDX)
#            f64             double precision, uses slot pairs
#            i24             24-bit integer multiply
#            repl            reduction result replicated to every slot
#            interp          parameter interpolation
#            prev_next       depends on the next slot of the group (DOT)
#            prev_interleave depends on the previous slot (MUL_PREV ...)
#            cvt             int <-> float conversion
# ---------------------------------------------------------------------------
ALU_OPS = [
    # name                  nsrc  opc(r6/r7, eg/cm)  slots R600 R700 EG CM     flags
    ("ADD",                    2, (0x00, 0x00), "VS VS VS VS", "comm assoc"),
    ("MUL",                    2, (0x01, 0x01), "VS VS VS VS", "comm assoc"),
    ("MUL_IEEE",               2, (0x02, 0x02), "VS VS VS VS", "comm assoc ieee"),
    ("MAX",                    2, (0x03, 0x03), "VS VS VS VS", "comm assoc"),
    ("MIN",                    2, (0x04, 0x04), "VS VS VS VS", "comm assoc"),
    ("MAX_DX10",               2, (0x05, 0x05), "VS VS VS VS", "comm assoc dx10"),
    ("MIN_DX10",               2, (0x06, 0x06), "VS VS VS VS", "comm assoc dx10"),
    ("SETE",                   2, (0x08, 0x08), "VS VS VS VS", "set cc_e"),
    ("SETGT",                  2, (0x09, 0x09), "VS VS VS VS", "set cc_gt"),
    ("SETGE",                  2, (0x0A, 0x0A), "VS VS VS VS", "set cc_ge"),
    ("SETNE",                  2, (0x0B, 0x0B), "VS VS VS VS", "set cc_ne"),
    ("SETE_DX10",              2, (0x0C, 0x0C), "VS VS VS VS", "set cc_e dx10 int_dst"),
    ("SETGT_DX10",             2, (0x0D, 0x0D), "VS VS VS VS", "set cc_gt dx10 int_dst"),
    ("SETGE_DX10",             2, (0x0E, 0x0E), "VS VS VS VS", "set cc_ge dx10 int_dst"),
    ("SETNE_DX10",             2, (0x0F, 0x0F), "VS VS VS VS", "set cc_ne dx10 int_dst"),
    ("FRACT",                  1, (0x10, 0x10), "VS VS VS VS", ""),
    ("TRUNC",                  1, (0x11, 0x11), "VS VS VS VS", ""),
    ("CEIL",                   1, (0x12, 0x12), "VS VS VS VS", ""),
    ("RNDNE",                  1, (0x13, 0x13), "VS VS VS VS", ""),
    ("FLOOR",                  1, (0x14, 0x14), "VS VS VS VS", ""),
    ("ASHR_INT",               2, (0x70, 0x15), "S VS VS VS", "int_dst"),
    ("LSHR_INT",               2, (0x71, 0x16), "S VS VS VS", "int_dst"),
    ("LSHL_INT",               2, (0x72, 0x17), "S VS VS VS", "int_dst"),
    ("MOV",                    1, (0x19, 0x19), "VS VS VS VS", ""),
    ("ALU_NOP",                0, (0x1A, 0x1A), "VS VS VS VS", ""),
    ("PRED_SETGT_UINT",        2, (0x1E, 0x1E), "VS VS VS VS", "pred cc_gt uint_cmp"),
    ("PRED_SETGE_UINT",        2, (0x1F, 0x1F), "VS VS VS VS", "pred cc_ge uint_cmp"),
    ("PRED_SETE",              2, (0x20, 0x20), "VS VS VS VS", "pred cc_e"),
    ("PRED_SETGT",             2, (0x21, 0x21), "VS VS VS VS", "pred cc_gt"),
    ("PRED_SETGE",             2, (0x22, 0x22), "VS VS VS VS", "pred cc_ge"),
    ("PRED_SETNE",             2, (0x23, 0x23), "VS VS VS VS", "pred cc_ne"),
    ("PRED_SET_INV",           1, (0x24, 0x24), "VS VS VS VS", "pred"),
    ("PRED_SET_POP",           2, (0x25, 0x25), "VS VS VS VS", "pred"),
    ("PRED_SET_CLR",           0, (0x26, 0x26), "VS VS VS VS", "pred"),
    ("PRED_SET_RESTORE",       1, (0x27, 0x27), "VS VS VS VS", "pred"),
    ("PRED_SETE_PUSH",         2, (0x28, 0x28), "VS VS VS VS", "pred_push cc_e"),
    ("PRED_SETGT_PUSH",        2, (0x29, 0x29), "VS VS VS VS", "pred_push cc_gt"),
    ("PRED_SETGE_PUSH",        2, (0x2A, 0x2A), "VS VS VS VS", "pred_push cc_ge"),
    ("PRED_SETNE_PUSH",        2, (0x2B, 0x2B), "VS VS VS VS", "pred_push cc_ne"),
    ("KILLE",                  2, (0x2C, 0x2C), "VS VS VS VS", "kill cc_e"),
    ("KILLGT",                 2, (0x2D, 0x2D), "VS VS VS VS", "kill cc_gt"),
    ("KILLGE",                 2, (0x2E, 0x2E), "VS VS VS VS", "kill cc_ge"),
    ("KILLNE",                 2, (0x2F, 0x2F), "VS VS VS VS", "kill cc_ne"),
    ("AND_INT",                2, (0x30, 0x30), "VS VS VS VS", "comm assoc int_dst"),
    ("OR_INT",                 2, (0x31, 0x31), "VS VS VS VS", "comm assoc int_dst"),
    ("XOR_INT",                2, (0x32, 0x32), "VS VS VS VS", "comm assoc int_dst"),
    ("NOT_INT",                1, (0x33, 0x33), "VS VS VS VS", "int_dst"),
    ("ADD_INT",                2, (0x34, 0x34), "VS VS VS VS", "comm assoc int_dst"),
    ("SUB_INT",                2, (0x35, 0x35), "VS VS VS VS", "int_dst"),
    ("MAX_INT",                2, (0x36, 0x36), "VS VS VS VS", "comm assoc int_dst"),
    ("MIN_INT",                2, (0x37, 0x37), "VS VS VS VS", "comm assoc int_dst"),
    ("MAX_UINT",               2, (0x38, 0x38), "VS VS VS VS", "comm assoc uint_dst"),
    ("MIN_UINT",               2, (0x39, 0x39), "VS VS VS VS", "comm assoc uint_dst"),
    ("SETE_INT",               2, (0x3A, 0x3A), "VS VS VS VS", "set cc_e int_dst int_cmp"),
    ("SETGT_INT",              2, (0x3B, 0x3B), "VS VS VS VS", "set cc_gt int_dst int_cmp"),
    ("SETGE_INT",              2, (0x3C, 0x3C), "VS VS VS VS", "set cc_ge int_dst int_cmp"),
    ("SETNE_INT",              2, (0x3D, 0x3D), "VS VS VS VS", "set cc_ne int_dst int_cmp"),
    ("SETGT_UINT",             2, (0x3E, 0x3E), "VS VS VS VS", "set cc_gt uint_dst uint_cmp"),
    ("SETGE_UINT",             2, (0x3F, 0x3F), "VS VS VS VS", "set cc_ge uint_dst uint_cmp"),
    ("KILLGT_UINT",            2, (0x40, 0x40), "VS VS VS VS", "kill cc_gt uint_cmp"),
    ("KILLGE_UINT",            2, (0x41, 0x41), "VS VS VS VS", "kill cc_ge uint_cmp"),
    ("PRED_SETE_INT",          2, (0x42, 0x42), "VS VS VS VS", "pred cc_e int_cmp"),
    ("PRED_SETGT_INT",         2, (0x43, 0x43), "VS VS VS VS", "pred cc_gt int_cmp"),
    ("PRED_SETGE_INT",         2, (0x44, 0x44), "VS VS VS VS", "pred cc_ge int_cmp"),
    ("PRED_SETNE_INT",         2, (0x45, 0x45), "VS VS VS VS", "pred cc_ne int_cmp"),
    ("KILLE_INT",              2, (0x46, 0x46), "VS VS VS VS", "kill cc_e int_cmp"),
    ("KILLGT_INT",             2, (0x47, 0x47), "VS VS VS VS", "kill cc_gt int_cmp"),
    ("KILLGE_INT",             2, (0x48, 0x48), "VS VS VS VS", "kill cc_ge int_cmp"),
    ("KILLNE_INT",             2, (0x49, 0x49), "VS VS VS VS", "kill cc_ne int_cmp"),
    ("PRED_SETE_PUSH_INT",     2, (0x4A, 0x4A), "VS VS VS VS", "pred_push cc_e int_cmp"),
    ("PRED_SETGT_PUSH_INT",    2, (0x4B, 0x4B), "VS VS VS VS", "pred_push cc_gt int_cmp"),
    ("PRED_SETGE_PUSH_INT",    2, (0x4C, 0x4C), "VS VS VS VS", "pred_push cc_ge int_cmp"),
    ("PRED_SETNE_PUSH_INT",    2, (0x4D, 0x4D), "VS VS VS VS", "pred_push cc_ne int_cmp"),
    ("PRED_SETLT_PUSH_INT",    2, (0x4E, 0x4E), "VS VS VS VS", "pred_push cc_lt int_cmp"),
    ("PRED_SETLE_PUSH_INT",    2, (0x4F, 0x4F), "VS VS VS VS", "pred_push cc_le int_cmp"),
    ("FLT_TO_INT",             1, (0x6B, 0x50), "S S V V", "int_dst cvt"),
    ("BFREV_INT",              1, (None, 0x51), "- - VS VS", "int_dst"),
    ("ADDC_UINT",              2, (None, 0x52), "- - VS VS", "uint_dst"),
    ("SUBB_UINT",              2, (None, 0x53), "- - VS VS", "uint_dst"),
    ("GROUP_BARRIER",          0, (None, 0x54), "- - VS VS", ""),
    ("GROUP_SEQ_BEGIN",        0, (None, 0x55), "- - VS -", ""),
    ("GROUP_SEQ_END",          0, (None, 0x56), "- - VS -", ""),
    ("SET_MODE",               2, (None, 0x57), "- - VS VS", ""),
    ("SET_CF_IDX0",            0, (None, 0x58), "- - VS -", "mova"),
    ("SET_CF_IDX1",            0, (None, 0x59), "- - VS -", "mova"),
    ("SET_LDS_SIZE",           2, (None, 0x5A), "- - VS VS", ""),
    ("MUL_INT24",              2, (None, 0x5B), "- - - V", "int_dst i24"),
    ("MULHI_INT24",            2, (None, 0x5C), "- - - V", "int_dst i24"),
    ("FLT_TO_INT_TRUNC",       1, (None, 0x5D), "- - - V", "int_dst cvt"),
    ("EXP_IEEE",               1, (0x61, 0x81), "S S S S", "ieee"),
    ("LOG_CLAMPED",            1, (0x62, 0x82), "S S S S", ""),
    ("LOG_IEEE",               1, (0x63, 0x83), "S S S S", "ieee"),
    ("RECIP_CLAMPED",          1, (0x64, 0x84), "S S S S", ""),
    ("RECIP_FF",               1, (0x65, 0x85), "S S S S", ""),
    ("RECIP_IEEE",             1, (0x66, 0x86), "S S S S", "ieee"),
    ("RECIPSQRT_CLAMPED",      1, (0x67, 0x87), "S S S S", ""),
    ("RECIPSQRT_FF",           1, (0x68, 0x88), "S S S S", ""),
    ("RECIPSQRT_IEEE",         1, (0x69, 0x89), "S S S S", "ieee"),
    ("SQRT_IEEE",              1, (0x6A, 0x8A), "S S S S", "ieee"),
    ("SIN",                    1, (0x6E, 0x8D), "S S S S", ""),
    ("COS",                    1, (0x6F, 0x8E), "S S S S", ""),
    ("MULLO_INT",              2, (0x73, 0x8F), "S S S 4V", "comm int_dst repl"),
    ("MULHI_INT",              2, (0x74, 0x90), "S S S 4V", "comm int_dst repl"),
    ("MULLO_UINT",             2, (0x75, 0x91), "S S S 4V", "comm uint_dst repl"),
    ("MULHI_UINT",             2, (0x76, 0x92), "S S S 4V", "comm uint_dst repl"),
    ("RECIP_INT",              1, (0x77, 0x93), "S S S -", "int_dst"),
    ("RECIP_UINT",             1, (0x78, 0x94), "S S S -", "uint_dst"),
    ("RECIP_64",               2, (None, 0x95), "- - S S", "f64"),
    ("RECIP_CLAMPED_64",       2, (None, 0x96), "- - S S", "f64"),
    ("RECIPSQRT_64",           2, (None, 0x97), "- - S S", "f64"),
    ("RECIPSQRT_CLAMPED_64",   2, (None, 0x98), "- - S S", "f64"),
    ("SQRT_64",                2, (None, 0x99), "- - S S", "f64"),
    ("FLT_TO_UINT",            1, (0x79, 0x9A), "S S S V", "uint_dst cvt"),
    ("INT_TO_FLT",             1, (0x6C, 0x9B), "S S S V", "cvt"),
    ("UINT_TO_FLT",            1, (0x6D, 0x9C), "S S S V", "cvt"),
    ("BFM_INT",                2, (None, 0xA0), "- - V V", "int_dst"),
    ("FLT32_TO_FLT16",         1, (None, 0xA2), "- - V V", ""),
    ("FLT16_TO_FLT32",         1, (None, 0xA3), "- - V V", ""),
    ("UBYTE0_FLT",             1, (None, 0xA4), "- - V V", ""),
    ("UBYTE1_FLT",             1, (None, 0xA5), "- - V V", ""),
    ("UBYTE2_FLT",             1, (None, 0xA6), "- - V V", ""),
    ("UBYTE3_FLT",             1, (None, 0xA7), "- - V V", ""),
    ("BCNT_INT",               1, (None, 0xAA), "- - V V", "int_dst"),
    ("FFBH_UINT",              1, (None, 0xAB), "- - V V", "uint_dst"),
    ("FFBL_INT",               1, (None, 0xAC), "- - V V", "int_dst"),
    ("FFBH_INT",               1, (None, 0xAD), "- - V V", "int_dst"),
    ("FLT_TO_UINT4",           1, (None, 0xAE), "- - V V", "uint_dst"),
    ("DOT_IEEE",               2, (None, 0xAF), "- - V V", "prev_next ieee"),
    ("FLT_TO_INT_RPI",         1, (None, 0xB0), "- - V V", "int_dst cvt"),
    ("FLT_TO_INT_FLOOR",       1, (None, 0xB1), "- - V V", "int_dst cvt"),
    ("MULHI_UINT24",           2, (None, 0xB2), "- - V V", "uint_dst i24"),
    ("MBCNT_32HI_INT",         1, (None, 0xB3), "- - V V", "int_dst"),
    ("OFFSET_TO_FLT",          1, (None, 0xB4), "- - V V", ""),
    ("MUL_UINT24",             2, (None, 0xB5), "- - V V", "uint_dst i24"),
    ("BCNT_ACCUM_PREV_INT",    1, (None, 0xB6), "- - V V", "int_dst prev_next"),
    ("MBCNT_32LO_ACCUM_PREV_INT", 1, (None, 0xB7), "- - V V", "int_dst prev_next"),
    ("SETE_64",                2, (None, 0xB8), "- - V V", "set cc_e f64"),
    ("SETNE_64",               2, (None, 0xB9), "- - V V", "set cc_ne f64"),
    ("SETGT_64",               2, (None, 0xBA), "- - V V", "set cc_gt f64"),
    ("SETGE_64",               2, (None, 0xBB), "- - V V", "set cc_ge f64"),
    ("MIN_64",                 2, (None, 0xBC), "- - V V", "f64"),
    ("MAX_64",                 2, (None, 0xBD), "- - V V", "f64"),
    ("DOT4",                   2, (0x50, 0xBE), "4V 4V 4V 4V", "repl"),
    ("DOT4_IEEE",              2, (0x51, 0xBF), "4V 4V 4V 4V", "repl ieee"),
    ("CUBE",                   2, (0x52, 0xC0), "4V 4V 4V 4V", ""),
    ("MAX4",                   1, (0x53, 0xC1), "4V 4V 4V 4V", "repl"),
    ("FREXP_64",               1, (0x07, 0xC4), "V V V V", "f64"),
    ("LDEXP_64",               2, (0x7A, 0xC5), "V V V V", "f64"),
    ("FRACT_64",               1, (0x7B, 0xC6), "V V V V", "f64"),
    ("PRED_SETGT_64",          2, (0x7C, 0xC7), "V V V V", "pred cc_gt f64"),
    ("PRED_SETE_64",           2, (0x7D, 0xC8), "V V V V", "pred cc_e f64"),
    ("PRED_SETGE_64",          2, (0x7E, 0xC9), "V V V V", "pred cc_ge f64"),
    ("MUL_64",                 2, (0x1B, 0xCA), "V V V 4V", "f64"),
    ("ADD_64",                 2, (0x17, 0xCB), "V V V V", "f64"),
    ("MOVA_INT",               1, (0x18, 0xCC), "V V V V", "mova"),
    ("FLT64_TO_FLT32",         1, (0x1C, 0xCD), "V V V V", "f64"),
    ("FLT32_TO_FLT64",         1, (0x1D, 0xCE), "V V V V", "f64"),
    ("SAD_ACCUM_PREV_UINT",    2, (None, 0xCF), "- - V V", "uint_dst prev_next"),
    ("DOT",                    2, (None, 0xD0), "- - V V", "prev_next"),
    ("MUL_PREV",               1, (None, 0xD1), "- - V V", "prev_interleave"),
    ("MUL_IEEE_PREV",          1, (None, 0xD2), "- - V V", "prev_interleave ieee"),
    ("ADD_PREV",               1, (None, 0xD3), "- - V V", "prev_interleave"),
    ("MULADD_PREV",            2, (None, 0xD4), "- - V V", "prev_interleave"),
    ("MULADD_IEEE_PREV",       2, (None, 0xD5), "- - V V", "prev_interleave ieee"),
    ("INTERP_XY",              2, (None, 0xD6), "- - 4V 4V", "interp"),
    ("INTERP_ZW",              2, (None, 0xD7), "- - 4V 4V", "interp"),
    ("INTERP_X",               2, (None, 0xD8), "- - XY XY", "interp"),
    ("INTERP_Z",               2, (None, 0xD9), "- - ZW ZW", "interp"),
    ("STORE_FLAGS",            1, (None, 0xDA), "- - V V", ""),
    ("LOAD_STORE_FLAGS",       1, (None, 0xDB), "- - V V", ""),
    ("LDS_1A",                 2, (None, 0xDC), "- - V V", ""),
    ("LDS_1A1D",               2, (None, 0xDD), "- - V V", ""),
    ("LDS_2A",                 2, (None, 0xDF), "- - V V", ""),
    ("INTERP_LOAD_P0",         1, (None, 0xE0), "- - V V", "interp"),
    ("INTERP_LOAD_P10",        1, (None, 0xE1), "- - V V", "interp"),
    ("INTERP_LOAD_P20",        1, (None, 0xE2), "- - V V", "interp"),
    # OP3 (three sources, ALU_WORD1_OP3)
    ("BFE_UINT",               3, (None, 0x04), "- - V V", "uint_dst"),
    ("BFE_INT",                3, (None, 0x05), "- - V V", "int_dst"),
    ("BFI_INT",                3, (None, 0x06), "- - V V", "int_dst"),
    ("FMA",                    3, (None, 0x07), "- - V V", ""),
    ("MULADD_INT24",           3, (None, 0x08), "- - - V", "int_dst i24"),
    ("CNDNE_64",               3, (None, 0x09), "- - V V", "cmov f64"),
    ("FMA_64",                 3, (None, 0x0A), "- - V 4V", "f64"),
    ("LERP_UINT",              3, (None, 0x0B), "- - V V", "uint_dst"),
    ("BIT_ALIGN_INT",          3, (None, 0x0C), "- - V V", "int_dst"),
    ("BYTE_ALIGN_INT",         3, (None, 0x0D), "- - V V", "int_dst"),
    ("SAD_ACCUM_UINT",         3, (None, 0x0E), "- - V V", "uint_dst"),
    ("SAD_ACCUM_HI_UINT",      3, (None, 0x0F), "- - V V", "uint_dst"),
    ("MULADD_UINT24",          3, (None, 0x10), "- - V V", "uint_dst i24"),
    ("LDS_IDX_OP",             3, (None, 0x11), "- - V V", ""),
    ("MULADD",                 3, (0x10, 0x14), "VS VS VS VS", "comm assoc"),
    ("MULADD_M2",              3, (0x11, 0x15), "VS VS VS VS", "comm assoc"),
    ("MULADD_M4",              3, (0x12, 0x16), "VS VS VS VS", "comm assoc"),
    ("MULADD_D2",              3, (0x13, 0x17), "VS VS VS VS", "comm assoc"),
    ("MULADD_IEEE",            3, (0x14, 0x18), "VS VS VS VS", "comm assoc ieee"),
    ("CNDE",                   3, (0x18, 0x19), "VS VS VS VS", "cmov cc_e"),
    ("CNDGT",                  3, (0x19, 0x1A), "VS VS VS VS", "cmov cc_gt"),
    ("CNDGE",                  3, (0x1A, 0x1B), "VS VS VS VS", "cmov cc_ge"),
    ("CNDE_INT",               3, (0x1C, 0x1C), "VS VS VS VS", "cmov cc_e int_cmp"),
    ("CNDGT_INT",              3, (0x1D, 0x1D), "VS VS VS VS", "cmov cc_gt int_cmp"),
    ("CNDGE_INT",              3, (0x1E, 0x1E), "VS VS VS VS", "cmov cc_ge int_cmp"),
    ("MUL_LIT",                3, (0x0C, 0x1F), "S S S V", ""),
    # R600/R700 only
    ("MOVA",                   1, (0x15, None), "V V - -", "mova"),
    ("MOVA_FLOOR",             1, (0x16, None), "V V - -", "mova"),
    ("MOVA_GPR_INT",           1, (0x60, None), "S - - -", "mova"),
    ("MULADD_64",              3, (0x08, None), "V V - -", "f64"),
    ("MULADD_64_M2",           3, (0x09, None), "V V - -", "f64"),
    ("MULADD_64_M4",           3, (0x0A, None), "V V - -", "f64"),
    ("MULADD_64_D2",           3, (0x0B, None), "V V - -", "f64"),
    ("MUL_LIT_M2",             3, (0x0D, None), "VS VS - -", ""),
    ("MUL_LIT_M4",             3, (0x0E, None), "VS VS - -", ""),
    ("MUL_LIT_D2",             3, (0x0F, None), "VS VS - -", ""),
    ("MULADD_IEEE_M2",         3, (0x15, None), "VS VS - -", "comm assoc ieee"),
    ("MULADD_IEEE_M4",         3, (0x16, None), "VS VS - -", "comm assoc ieee"),
    ("MULADD_IEEE_D2",         3, (0x17, None), "VS VS - -", "comm assoc ieee"),
]

# ---------------------------------------------------------------------------
# Fetch (TEX/VTX clause) instructions.  opc per chip class (None = absent).
# The low 5 bits go to TEX_INST / VTX_INST; bits 8-9 of the Mesa-style value
# are the Evergreen INST_MOD field (TEX_WORD0 bits 5-6).
#   kind  tex = TEX_WORD0/1/2 layout, vtx = VTX_WORD0/1/2 layout
#   flags setgrad getgrad usegrad offsets (sets texture offsets)
# GDS and MEM_RD instructions are not described yet (see docs/r600-isa.md).
# ---------------------------------------------------------------------------
FETCH_OPS = [
    # name                  kind  R600   R700   EG      CM      flags
    ("VFETCH",               "vtx", (0x00, 0x00, 0x00, 0x00), ""),
    ("SEMFETCH",             "vtx", (0x01, 0x01, 0x01, 0x01), ""),
    ("GET_BUFFER_RESINFO",   "vtx", (None, None, 0x0E, 0x0E), ""),
    ("LD",                   "tex", (0x03, 0x03, 0x03, 0x03), ""),
    ("LDFPTR",               "tex", (None, None, 0x103, 0x103), ""),
    ("GET_TEXTURE_RESINFO",  "tex", (0x04, 0x04, 0x04, 0x04), ""),
    ("GET_NUMBER_OF_SAMPLES", "tex", (0x05, 0x05, 0x05, 0x05), ""),
    ("GET_LOD",              "tex", (0x06, 0x06, 0x06, 0x06), ""),
    ("GET_GRADIENTS_H",      "tex", (0x07, 0x07, 0x07, 0x07), "getgrad"),
    ("GET_GRADIENTS_V",      "tex", (0x08, 0x08, 0x08, 0x08), "getgrad"),
    ("GET_GRADIENTS_H_FINE", "tex", (None, None, 0x107, 0x107), "getgrad"),
    ("GET_GRADIENTS_V_FINE", "tex", (None, None, 0x108, 0x108), "getgrad"),
    ("GET_LERP",             "tex", (0x09, 0x09, None, None), ""),
    ("SET_TEXTURE_OFFSETS",  "tex", (None, None, 0x09, 0x09), "offsets"),
    ("KEEP_GRADIENTS",       "tex", (None, 0x0A, 0x0A, 0x0A), ""),
    ("SET_GRADIENTS_H",      "tex", (0x0B, 0x0B, 0x0B, 0x0B), "setgrad"),
    ("SET_GRADIENTS_V",      "tex", (0x0C, 0x0C, 0x0C, 0x0C), "setgrad"),
    ("SET_GRADIENTS_H_COARSE", "tex", (None, None, None, 0x10B), "setgrad"),
    ("SET_GRADIENTS_V_COARSE", "tex", (None, None, None, 0x10C), "setgrad"),
    ("SET_GRADIENTS_H_PACKED_FINE", "tex", (None, None, None, 0x20B), "setgrad"),
    ("SET_GRADIENTS_V_PACKED_FINE", "tex", (None, None, None, 0x20C), "setgrad"),
    ("SET_GRADIENTS_H_PACKED_COARSE", "tex", (None, None, None, 0x30B), "setgrad"),
    ("SET_GRADIENTS_V_PACKED_COARSE", "tex", (None, None, None, 0x30C), "setgrad"),
    ("PASS",                 "tex", (0x0D, 0x0D, 0x0D, 0x0D), ""),
    ("PASS1",                "tex", (None, None, 0x10D, 0x10D), ""),
    ("PASS2",                "tex", (None, None, 0x20D, 0x20D), ""),
    ("PASS3",                "tex", (None, None, 0x30D, 0x30D), ""),
    ("SET_CUBEMAP_INDEX",    "tex", (0x0E, 0x0E, None, None), ""),
    ("FETCH4",               "tex", (0x0F, 0x0F, None, None), ""),
    ("SAMPLE",               "tex", (0x10, 0x10, 0x10, 0x10), ""),
    ("SAMPLE_L",             "tex", (0x11, 0x11, 0x11, 0x11), ""),
    ("SAMPLE_LB",            "tex", (0x12, 0x12, 0x12, 0x12), ""),
    ("SAMPLE_LZ",            "tex", (0x13, 0x13, 0x13, 0x13), ""),
    ("SAMPLE_G",             "tex", (0x14, 0x14, 0x14, 0x14), "usegrad"),
    ("SAMPLE_G_L",           "tex", (0x15, 0x15, None, None), "usegrad"),
    ("GATHER4",              "tex", (None, None, 0x15, 0x15), ""),
    ("SAMPLE_G_LB",          "tex", (0x16, 0x16, 0x16, 0x16), "usegrad"),
    ("SAMPLE_G_LZ",          "tex", (0x17, 0x17, None, None), "usegrad"),
    ("GATHER4_O",            "tex", (None, None, 0x17, 0x17), ""),
    ("SAMPLE_C",             "tex", (0x18, 0x18, 0x18, 0x18), ""),
    ("SAMPLE_C_L",           "tex", (0x19, 0x19, 0x19, 0x19), ""),
    ("SAMPLE_C_LB",          "tex", (0x1A, 0x1A, 0x1A, 0x1A), ""),
    ("SAMPLE_C_LZ",          "tex", (0x1B, 0x1B, 0x1B, 0x1B), ""),
    ("SAMPLE_C_G",           "tex", (0x1C, 0x1C, 0x1C, 0x1C), "usegrad"),
    ("SAMPLE_C_G_L",         "tex", (0x1D, 0x1D, None, None), "usegrad"),
    ("GATHER4_C",            "tex", (None, None, 0x1D, 0x1D), ""),
    ("SAMPLE_C_G_LB",        "tex", (0x1E, 0x1E, 0x1E, 0x1E), "usegrad"),
    ("SAMPLE_C_G_LZ",        "tex", (0x1F, 0x1F, None, None), "usegrad"),
    ("GATHER4_C_O",          "tex", (None, None, 0x1F, 0x1F), ""),
]

# ---------------------------------------------------------------------------
# CF instructions.  opc per chip class (None = absent).
#   enc   word layout: cf (CF_WORD0/1), alu (CF_ALU_WORD0/1, a 4-bit CF_INST),
#         exp (CF_ALLOC_EXPORT_WORD0 + WORD1_SWIZ), mem (... + WORD1_BUF)
#   flags clause (executes a clause), fetch (TEX/VTX clause: 4-dword
#         instructions), vtx (the clause holds vertex fetches), branch, loop,
#         loop_start, call, emit, uncond (COND must be ACTIVE), ext (ALU_EXT
#         prefix word pair), target (ADDR is a CF target, not a clause)
# ---------------------------------------------------------------------------
CF_OPS = [
    # name              enc    R600  R700  EG    CM     flags
    ("NOP",             "cf",  (0x00, 0x00, 0x00, 0x00), ""),
    ("TEX",             "cf",  (0x01, 0x01, 0x01, 0x01), "clause fetch uncond"),
    ("VTX",             "cf",  (0x02, 0x02, 0x02, None), "clause fetch vtx uncond"),
    ("VTX_TC",          "cf",  (0x03, 0x03, None, None), "clause fetch vtx uncond"),
    ("GDS",             "cf",  (None, None, 0x03, 0x03), "clause fetch uncond"),
    ("LOOP_START",      "cf",  (0x04, 0x04, 0x04, 0x04), "loop loop_start target"),
    ("LOOP_END",        "cf",  (0x05, 0x05, 0x05, 0x05), "loop target"),
    ("LOOP_START_DX10", "cf",  (0x06, 0x06, 0x06, 0x06), "loop loop_start target"),
    ("LOOP_START_NO_AL", "cf", (0x07, 0x07, 0x07, 0x07), "loop loop_start target"),
    ("LOOP_CONTINUE",   "cf",  (0x08, 0x08, 0x08, 0x08), "loop target"),
    ("LOOP_BREAK",      "cf",  (0x09, 0x09, 0x09, 0x09), "loop target"),
    ("JUMP",            "cf",  (0x0A, 0x0A, 0x0A, 0x0A), "branch target"),
    ("PUSH",            "cf",  (0x0B, 0x0B, 0x0B, 0x0B), "branch target"),
    ("PUSH_ELSE",       "cf",  (0x0C, 0x0C, None, None), "branch target"),
    ("ELSE",            "cf",  (0x0D, 0x0D, 0x0D, 0x0D), "branch target"),
    ("POP",             "cf",  (0x0E, 0x0E, 0x0E, 0x0E), "branch target"),
    ("POP_JUMP",        "cf",  (0x0F, 0x0F, None, None), "branch target"),
    ("POP_PUSH",        "cf",  (0x10, 0x10, None, None), "branch target"),
    ("POP_PUSH_ELSE",   "cf",  (0x11, 0x11, None, None), "branch target"),
    ("CALL",            "cf",  (0x12, 0x12, 0x12, 0x12), "call target"),
    ("CALL_FS",         "cf",  (0x13, 0x13, 0x13, 0x13), "call"),
    ("RET",             "cf",  (0x14, 0x14, 0x14, 0x14), "target"),
    ("EMIT_VERTEX",     "cf",  (0x15, 0x15, 0x15, 0x15), "emit uncond target"),
    ("EMIT_CUT_VERTEX", "cf",  (0x16, 0x16, 0x16, 0x16), "emit uncond target"),
    ("CUT_VERTEX",      "cf",  (0x17, 0x17, 0x17, 0x17), "emit uncond target"),
    ("KILL",            "cf",  (0x18, 0x18, 0x18, 0x18), "uncond target"),
    ("END_PROGRAM",     "cf",  (0x19, 0x19, 0x19, 0x19), "target"),
    ("WAIT_ACK",        "cf",  (None, 0x1A, 0x1A, 0x1A), "target"),
    ("TEX_ACK",         "cf",  (None, 0x1B, 0x1B, 0x1B), "clause fetch uncond"),
    ("VTX_ACK",         "cf",  (None, 0x1C, 0x1C, None), "clause fetch vtx uncond"),
    ("VTX_TC_ACK",      "cf",  (None, 0x1D, None, None), "clause fetch vtx uncond"),
    ("JUMPTABLE",       "cf",  (None, None, 0x1D, 0x1D), "branch target"),
    ("WAVE_SYNC",       "cf",  (None, None, 0x1E, 0x1E), "target"),
    ("HALT",            "cf",  (None, None, 0x1F, 0x1F), "target"),
    ("CF_END",          "cf",  (None, None, None, 0x20), "target"),
    ("LDS_DEALLOC",     "cf",  (None, None, None, 0x21), "target"),
    ("PUSH_WQM",        "cf",  (None, None, None, 0x22), "branch target"),
    ("POP_WQM",         "cf",  (None, None, None, 0x23), "branch target"),
    ("ELSE_WQM",        "cf",  (None, None, None, 0x24), "branch target"),
    ("JUMP_ANY",        "cf",  (None, None, None, 0x25), "branch target"),
    ("MEM_STREAM0",     "mem", (0x20, 0x20, None, None), ""),
    ("MEM_STREAM1",     "mem", (0x21, 0x21, None, None), ""),
    ("MEM_STREAM2",     "mem", (0x22, 0x22, None, None), ""),
    ("MEM_STREAM3",     "mem", (0x23, 0x23, None, None), ""),
    ("MEM_STREAM0_BUF0", "mem", (None, None, 0x40, 0x40), ""),
    ("MEM_STREAM0_BUF1", "mem", (None, None, 0x41, 0x41), ""),
    ("MEM_STREAM0_BUF2", "mem", (None, None, 0x42, 0x42), ""),
    ("MEM_STREAM0_BUF3", "mem", (None, None, 0x43, 0x43), ""),
    ("MEM_STREAM1_BUF0", "mem", (None, None, 0x44, 0x44), ""),
    ("MEM_STREAM1_BUF1", "mem", (None, None, 0x45, 0x45), ""),
    ("MEM_STREAM1_BUF2", "mem", (None, None, 0x46, 0x46), ""),
    ("MEM_STREAM1_BUF3", "mem", (None, None, 0x47, 0x47), ""),
    ("MEM_STREAM2_BUF0", "mem", (None, None, 0x48, 0x48), ""),
    ("MEM_STREAM2_BUF1", "mem", (None, None, 0x49, 0x49), ""),
    ("MEM_STREAM2_BUF2", "mem", (None, None, 0x4A, 0x4A), ""),
    ("MEM_STREAM2_BUF3", "mem", (None, None, 0x4B, 0x4B), ""),
    ("MEM_STREAM3_BUF0", "mem", (None, None, 0x4C, 0x4C), ""),
    ("MEM_STREAM3_BUF1", "mem", (None, None, 0x4D, 0x4D), ""),
    ("MEM_STREAM3_BUF2", "mem", (None, None, 0x4E, 0x4E), ""),
    ("MEM_STREAM3_BUF3", "mem", (None, None, 0x4F, 0x4F), ""),
    ("MEM_SCRATCH",     "mem", (0x24, 0x24, 0x50, 0x50), ""),
    ("MEM_REDUCT",      "mem", (0x25, 0x25, None, None), ""),
    ("MEM_RING",        "mem", (0x26, 0x26, 0x52, 0x52), "emit"),
    ("EXPORT",          "exp", (0x27, 0x27, 0x53, 0x53), ""),
    ("EXPORT_DONE",     "exp", (0x28, 0x28, 0x54, 0x54), ""),
    ("MEM_EXPORT",      "mem", (None, 0x3A, 0x55, 0x55), ""),
    ("MEM_RAT",         "mem", (None, None, 0x56, 0x56), ""),
    ("MEM_RAT_NOCACHE", "mem", (None, None, 0x57, 0x57), ""),
    ("MEM_RING1",       "mem", (None, None, 0x58, 0x58), "emit"),
    ("MEM_RING2",       "mem", (None, None, 0x59, 0x59), "emit"),
    ("MEM_RING3",       "mem", (None, None, 0x5A, 0x5A), "emit"),
    ("MEM_MEM_COMBINED", "mem", (None, None, 0x5B, 0x5B), ""),
    ("MEM_RAT_COMBINED_NOCACHE", "mem", (None, None, 0x5C, 0x5C), ""),
    ("MEM_RAT_COMBINED", "mem", (None, None, None, 0x5D), ""),
    ("EXPORT_DONE_END", "exp", (None, None, None, 0x5E), ""),
    ("ALU",             "alu", (0x08, 0x08, 0x08, 0x08), "clause"),
    ("ALU_PUSH_BEFORE", "alu", (0x09, 0x09, 0x09, 0x09), "clause"),
    ("ALU_POP_AFTER",   "alu", (0x0A, 0x0A, 0x0A, 0x0A), "clause"),
    ("ALU_POP2_AFTER",  "alu", (0x0B, 0x0B, 0x0B, 0x0B), "clause"),
    ("ALU_EXT",         "alu", (None, None, 0x0C, 0x0C), "ext"),
    ("ALU_CONTINUE",    "alu", (0x0D, 0x0D, 0x0D, None), "clause"),
    ("ALU_BREAK",       "alu", (0x0E, 0x0E, 0x0E, None), "clause"),
    ("ALU_VALID_PIXEL_MODE", "alu", (None, None, None, 0x0E), "clause"),
    ("ALU_ELSE_AFTER",  "alu", (0x0F, 0x0F, 0x0F, 0x0F), "clause"),
]

# ---------------------------------------------------------------------------
# Word layouts: name -> list of (field, low bit, width).  Bits not covered by
# a field are reserved; the decoder rejects words with reserved bits set.
# ---------------------------------------------------------------------------
_CF_TAIL_R600 = [("END_OF_PROGRAM", 21, 1), ("VALID_PIXEL_MODE", 22, 1),
                 ("CF_INST", 23, 7), ("WHOLE_QUAD_MODE", 30, 1), ("BARRIER", 31, 1)]
_CF_TAIL_EG = [("VALID_PIXEL_MODE", 20, 1), ("END_OF_PROGRAM", 21, 1),
               ("CF_INST", 22, 8), ("WHOLE_QUAD_MODE", 30, 1), ("BARRIER", 31, 1)]
_EXP_TAIL_R600 = [("BURST_COUNT", 17, 4)] + _CF_TAIL_R600
_EXP_TAIL_EG = [("BURST_COUNT", 16, 4), ("VALID_PIXEL_MODE", 20, 1), ("END_OF_PROGRAM", 21, 1),
                ("CF_INST", 22, 8), ("MARK", 30, 1), ("BARRIER", 31, 1)]
_DST_OP = [("BANK_SWIZZLE", 18, 3), ("DST_GPR", 21, 7), ("DST_REL", 28, 1),
           ("DST_CHAN", 29, 2), ("CLAMP", 31, 1)]

WORDS = {
    "CF_WORD0_R600": [("ADDR", 0, 32)],
    "CF_WORD1_R600": [("POP_COUNT", 0, 3), ("CF_CONST", 3, 5), ("COND", 8, 2),
                      ("COUNT", 10, 3), ("CALL_COUNT", 13, 6), ("COUNT_3", 19, 1)] + _CF_TAIL_R600,
    "CF_WORD0_EG": [("ADDR", 0, 24), ("JUMPTABLE_SEL", 24, 3)],
    "CF_WORD1_EG": [("POP_COUNT", 0, 3), ("CF_CONST", 3, 5), ("COND", 8, 2),
                    ("COUNT", 10, 6)] + _CF_TAIL_EG,
    "CF_ALU_WORD0": [("ADDR", 0, 22), ("KCACHE_BANK0", 22, 4), ("KCACHE_BANK1", 26, 4),
                     ("KCACHE_MODE0", 30, 2)],
    "CF_ALU_WORD1": [("KCACHE_MODE1", 0, 2), ("KCACHE_ADDR0", 2, 8), ("KCACHE_ADDR1", 10, 8),
                     ("COUNT", 18, 7), ("ALT_CONST", 25, 1), ("CF_INST", 26, 4),
                     ("WHOLE_QUAD_MODE", 30, 1), ("BARRIER", 31, 1)],
    "CF_ALU_WORD0_EXT": [("KCACHE_BANK_INDEX_MODE0", 4, 2), ("KCACHE_BANK_INDEX_MODE1", 6, 2),
                         ("KCACHE_BANK_INDEX_MODE2", 8, 2), ("KCACHE_BANK_INDEX_MODE3", 10, 2),
                         ("KCACHE_BANK2", 22, 4), ("KCACHE_BANK3", 26, 4),
                         ("KCACHE_MODE2", 30, 2)],
    "CF_ALU_WORD1_EXT": [("KCACHE_MODE3", 0, 2), ("KCACHE_ADDR2", 2, 8), ("KCACHE_ADDR3", 10, 8),
                         ("CF_INST", 26, 4), ("BARRIER", 31, 1)],
    "CF_ALLOC_EXPORT_WORD0": [("ARRAY_BASE", 0, 13), ("TYPE", 13, 2), ("RW_GPR", 15, 7),
                              ("RW_REL", 22, 1), ("INDEX_GPR", 23, 7), ("ELEM_SIZE", 30, 2)],
    "CF_ALLOC_EXPORT_WORD1_SWIZ_R600": [("SEL_X", 0, 3), ("SEL_Y", 3, 3), ("SEL_Z", 6, 3),
                                        ("SEL_W", 9, 3)] + _EXP_TAIL_R600,
    "CF_ALLOC_EXPORT_WORD1_SWIZ_EG": [("SEL_X", 0, 3), ("SEL_Y", 3, 3), ("SEL_Z", 6, 3),
                                      ("SEL_W", 9, 3)] + _EXP_TAIL_EG,
    "CF_ALLOC_EXPORT_WORD1_BUF_R600": [("ARRAY_SIZE", 0, 12), ("COMP_MASK", 12, 4)] + _EXP_TAIL_R600,
    "CF_ALLOC_EXPORT_WORD1_BUF_EG": [("ARRAY_SIZE", 0, 12), ("COMP_MASK", 12, 4)] + _EXP_TAIL_EG,
    "ALU_WORD0": [("SRC0_SEL", 0, 9), ("SRC0_REL", 9, 1), ("SRC0_CHAN", 10, 2), ("SRC0_NEG", 12, 1),
                  ("SRC1_SEL", 13, 9), ("SRC1_REL", 22, 1), ("SRC1_CHAN", 23, 2),
                  ("SRC1_NEG", 25, 1), ("INDEX_MODE", 26, 3), ("PRED_SEL", 29, 2), ("LAST", 31, 1)],
    # R600 has FOG_MERGE and a 10-bit ALU_INST one bit higher than R700+.
    "ALU_WORD1_OP2_R600": [("SRC0_ABS", 0, 1), ("SRC1_ABS", 1, 1), ("UPDATE_EXEC_MASK", 2, 1),
                           ("UPDATE_PRED", 3, 1), ("WRITE_MASK", 4, 1), ("FOG_MERGE", 5, 1),
                           ("OMOD", 6, 2), ("ALU_INST", 8, 10)] + _DST_OP,
    "ALU_WORD1_OP2": [("SRC0_ABS", 0, 1), ("SRC1_ABS", 1, 1), ("UPDATE_EXEC_MASK", 2, 1),
                      ("UPDATE_PRED", 3, 1), ("WRITE_MASK", 4, 1), ("OMOD", 5, 2),
                      ("ALU_INST", 7, 11)] + _DST_OP,
    "ALU_WORD1_OP3": [("SRC2_SEL", 0, 9), ("SRC2_REL", 9, 1), ("SRC2_CHAN", 10, 2),
                      ("SRC2_NEG", 12, 1), ("ALU_INST", 13, 5)] + _DST_OP,
    "TEX_WORD0_R600": [("TEX_INST", 0, 5), ("BC_FRAC_MODE", 5, 1), ("FETCH_WHOLE_QUAD", 7, 1),
                       ("RESOURCE_ID", 8, 8), ("SRC_GPR", 16, 7), ("SRC_REL", 23, 1),
                       ("ALT_CONST", 24, 1)],
    "TEX_WORD0_EG": [("TEX_INST", 0, 5), ("INST_MOD", 5, 2), ("FETCH_WHOLE_QUAD", 7, 1),
                     ("RESOURCE_ID", 8, 8), ("SRC_GPR", 16, 7), ("SRC_REL", 23, 1),
                     ("ALT_CONST", 24, 1), ("RESOURCE_INDEX_MODE", 25, 2),
                     ("SAMPLER_INDEX_MODE", 27, 2)],
    "TEX_WORD1": [("DST_GPR", 0, 7), ("DST_REL", 7, 1), ("DST_SEL_X", 9, 3), ("DST_SEL_Y", 12, 3),
                  ("DST_SEL_Z", 15, 3), ("DST_SEL_W", 18, 3), ("LOD_BIAS", 21, 7),
                  ("COORD_TYPE_X", 28, 1), ("COORD_TYPE_Y", 29, 1), ("COORD_TYPE_Z", 30, 1),
                  ("COORD_TYPE_W", 31, 1)],
    "TEX_WORD2": [("OFFSET_X", 0, 5), ("OFFSET_Y", 5, 5), ("OFFSET_Z", 10, 5),
                  ("SAMPLER_ID", 15, 5), ("SRC_SEL_X", 20, 3), ("SRC_SEL_Y", 23, 3),
                  ("SRC_SEL_Z", 26, 3), ("SRC_SEL_W", 29, 3)],
    "VTX_WORD0": [("VTX_INST", 0, 5), ("FETCH_TYPE", 5, 2), ("FETCH_WHOLE_QUAD", 7, 1),
                  ("BUFFER_ID", 8, 8), ("SRC_GPR", 16, 7), ("SRC_REL", 23, 1),
                  ("SRC_SEL_X", 24, 2), ("MEGA_FETCH_COUNT", 26, 6)],
    "VTX_WORD1_GPR": [("DST_GPR", 0, 7), ("DST_REL", 7, 1), ("DST_SEL_X", 9, 3),
                      ("DST_SEL_Y", 12, 3), ("DST_SEL_Z", 15, 3), ("DST_SEL_W", 18, 3),
                      ("USE_CONST_FIELDS", 21, 1), ("DATA_FORMAT", 22, 6),
                      ("NUM_FORMAT_ALL", 28, 2), ("FORMAT_COMP_ALL", 30, 1),
                      ("SRF_MODE_ALL", 31, 1)],
    "VTX_WORD1_SEM": [("SEMANTIC_ID", 0, 8), ("DST_SEL_X", 9, 3),
                      ("DST_SEL_Y", 12, 3), ("DST_SEL_Z", 15, 3), ("DST_SEL_W", 18, 3),
                      ("USE_CONST_FIELDS", 21, 1), ("DATA_FORMAT", 22, 6),
                      ("NUM_FORMAT_ALL", 28, 2), ("FORMAT_COMP_ALL", 30, 1),
                      ("SRF_MODE_ALL", 31, 1)],
    "VTX_WORD2_R600": [("OFFSET", 0, 16), ("ENDIAN_SWAP", 16, 2), ("CONST_BUF_NO_STRIDE", 18, 1),
                       ("MEGA_FETCH", 19, 1), ("ALT_CONST", 20, 1)],
    "VTX_WORD2_EG": [("OFFSET", 0, 16), ("ENDIAN_SWAP", 16, 2), ("CONST_BUF_NO_STRIDE", 18, 1),
                     ("MEGA_FETCH", 19, 1), ("ALT_CONST", 20, 1), ("BUFFER_INDEX_MODE", 21, 2)],
}

# ---------------------------------------------------------------------------
# ALU source selectors (9-bit SRCn_SEL).  Ranges: (name, first, last, chips)
# and single inline constants: (name, value, chips, printed form).
# ---------------------------------------------------------------------------
SRC_RANGES = [
    ("GPR",     0,   127, "R600 R700 EVERGREEN CAYMAN"),  # 124-127: clause temps (T0-T3)
    ("KCACHE0", 128, 159, "R600 R700 EVERGREEN CAYMAN"),
    ("KCACHE1", 160, 191, "R600 R700 EVERGREEN CAYMAN"),
    ("CFILE",   256, 511, "R600 R700"),                   # constant file C0-C255
    ("KCACHE2", 256, 287, "EVERGREEN CAYMAN"),
    ("KCACHE3", 288, 319, "EVERGREEN CAYMAN"),
    ("PARAM",   448, 479, "EVERGREEN CAYMAN"),            # interpolation parameters
]
CLAUSE_TEMP_FIRST = 124

SRC_INLINE = [
    # name            sel  chips                         printed (Mesa style)
    ("LDS_OQ_A",      219, "EVERGREEN CAYMAN",           "LDS_OQ_A"),
    ("LDS_OQ_B",      220, "EVERGREEN CAYMAN",           "LDS_OQ_B"),
    ("LDS_OQ_A_POP",  221, "EVERGREEN CAYMAN",           "LDS_OQ_A_POP"),
    ("LDS_OQ_B_POP",  222, "EVERGREEN CAYMAN",           "LDS_OQ_B_POP"),
    ("LDS_DIRECT_A",  223, "EVERGREEN CAYMAN",           "LDS_A"),
    ("LDS_DIRECT_B",  224, "EVERGREEN CAYMAN",           "LDS_B"),
    ("TIME_HI",       227, "EVERGREEN CAYMAN",           "TIME_HI"),
    ("TIME_LO",       228, "EVERGREEN CAYMAN",           "TIME_LO"),
    ("MASK_HI",       229, "EVERGREEN CAYMAN",           "MASK_HI"),
    ("MASK_LO",       230, "EVERGREEN CAYMAN",           "MASK_LO"),
    ("HW_WAVE_ID",    231, "EVERGREEN CAYMAN",           "HW_WAVE_ID"),
    ("SIMD_ID",       232, "EVERGREEN CAYMAN",           "SIMD_ID"),
    ("SE_ID",         233, "EVERGREEN CAYMAN",           "SE_ID"),
    ("0",             248, "R600 R700 EVERGREEN CAYMAN", "0"),
    ("1",             249, "R600 R700 EVERGREEN CAYMAN", "1.0"),
    ("1_INT",         250, "R600 R700 EVERGREEN CAYMAN", "1"),
    ("M_1_INT",       251, "R600 R700 EVERGREEN CAYMAN", "-1"),
    ("0_5",           252, "R600 R700 EVERGREEN CAYMAN", "0.5"),
    ("LITERAL",       253, "R600 R700 EVERGREEN CAYMAN", "LITERAL"),
    ("PV",            254, "R600 R700 EVERGREEN CAYMAN", "PV"),
    ("PS",            255, "R600 R700 EVERGREEN CAYMAN", "PS"),
]

# Export types (CF_ALLOC_EXPORT_WORD0.TYPE) for EXPORT/EXPORT_DONE.
EXPORT_TYPES = ["PIXEL", "POS", "PARAM"]
# Memory export types for MEM_* (R700+ naming).
MEM_EXPORT_TYPES = ["WRITE", "WRITE_IND", "WRITE_ACK", "WRITE_IND_ACK"]

# Chip names (Mesa's family names) -> chip class.
FAMILIES = [
    ("R600", "R600"), ("RV610", "R600"), ("RV630", "R600"), ("RV670", "R600"),
    ("RV620", "R600"), ("RV635", "R600"), ("RS780", "R600"), ("RS880", "R600"),
    ("RV770", "R700"), ("RV730", "R700"), ("RV710", "R700"), ("RV740", "R700"),
    ("CEDAR", "EVERGREEN"), ("REDWOOD", "EVERGREEN"), ("JUNIPER", "EVERGREEN"),
    ("CYPRESS", "EVERGREEN"), ("HEMLOCK", "EVERGREEN"), ("PALM", "EVERGREEN"),
    ("SUMO", "EVERGREEN"), ("SUMO2", "EVERGREEN"), ("BARTS", "EVERGREEN"),
    ("TURKS", "EVERGREEN"), ("CAICOS", "EVERGREEN"),
    ("CAYMAN", "CAYMAN"), ("ARUBA", "CAYMAN"),
]
