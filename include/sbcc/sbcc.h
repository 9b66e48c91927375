/*
 * sbcc public C API: compile TGSI text for one target.
 *
 *    sbcc_compiler *c = sbcc_compiler_create("reference", NULL);
 *    unsigned char *bin; size_t size; char *stats, *err;
 *    if (sbcc_compile_tgsi(c, text, strlen(text), &bin, &size, &stats, &err) == 0) ...
 *    sbcc_free(bin); sbcc_free(stats); sbcc_free(err);
 *    sbcc_compiler_destroy(c);
 *
 * Debug switches come from the environment (R600_DEBUG, SBCC_DEBUG, ...),
 * read once when the compiler is created.  Thread safety: one compiler per
 * thread; different compilers may be used concurrently.
 */
#ifndef SBCC_SBCC_H
#define SBCC_SBCC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbcc_compiler sbcc_compiler;

/* target: a registry name ("reference", ...); chip: NULL or "" for the
 * target's default.  Returns NULL when the target is unknown. */
sbcc_compiler *sbcc_compiler_create(const char *target, const char *chip);
void sbcc_compiler_destroy(sbcc_compiler *compiler);

/* Compile tgsi_dump text of `len` bytes.  Returns 0 on success.  Every out
 * pointer may be NULL; what is returned must be released with sbcc_free:
 *   out_binary/out_size: machine code (NULL/0 for targets without one),
 *   out_stats_text: shader-db style "12 inst, 3 temps, ..." (success only),
 *   out_error_text: diagnostics, one per line "file:line:col: error: ..."
 *                   (on failure; NULL on success). */
int sbcc_compile_tgsi(sbcc_compiler *compiler, const char *text, size_t len,
                      unsigned char **out_binary, size_t *out_size, char **out_stats_text,
                      char **out_error_text);

void sbcc_free(void *ptr);

/* Frees the memory the calling thread keeps between compiles (docs/sb.md):
 * the sb optimizer's large blocks (up to 96 MiB, usually far less, kept so
 * the next big shader does not fault them in again), the pools of small
 * blocks and every pass's scratch tables.  For a thread that stops
 * compiling for good; compiling again afterwards is fine.  All of it is
 * also freed when the thread ends.  Not while the thread compiles. */
void sbcc_release_thread_memory(void);

/* Names of the registered targets, comma separated; release with sbcc_free. */
char *sbcc_target_names(void);

#ifdef __cplusplus
}
#endif

#endif
