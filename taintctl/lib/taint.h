/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * taint.h - libtaint: decode, explain, find, set and check Linux kernel taint.
 *
 * libtaint is the library under the taintctl(1) command.  It depends on
 * libc, and, for compressed logs (source.c), on zlib, liblzma, libzstd,
 * libbz2 and liblz4 (libtaint.so.1 is linked with them; a static link takes
 * them from pkg-config --static --libs libtaint); it allocates only where a
 * function says so, and keeps no global state.  All functions are safe to
 * call from several threads as long as they do not share a struct
 * taint_scanner (a struct taint_log never changes once made: threads may
 * share one, and taint_log_ref()/taint_log_unref() are atomic).
 *
 * Conventions:
 *  - A taint mask is a uint64_t: bit N set means the kernel's taint flag
 *    number N is set, exactly as /proc/sys/kernel/tainted reports it.
 *  - Functions returning int return 0 (or a documented non-negative value)
 *    on success and a negative errno value on failure; they never print.
 *  - Letters strings ("PWO") list known flags in bit order, never 'G'.
 *
 * Overview of the API:
 *   flags.c   taint_flag_info(), taint_flag_by_letter(), taint_flag_by_name(),
 *             taint_mask_letters(), taint_letters_to_mask(),
 *             taint_flags_to_mask(), taint_unknown_bits(), taint_version()
 *   value.c   taint_parse_value(), taint_parse_saved_mask()
 *   field.c   taint_parse_field(), taint_parse_body(), taint_find_field()
 *   scanner.c taint_scanner_new/feed/feed_lines/finish/free(),
 *             taint_scan_fd(), taint_scan_fd_opts()
 *   source.c  taint_compression_name(), taint_compression_info(),
 *             taint_read_text() (and the decompressors; encoding.c:
 *             UTF-16)
 *   log.c     taint_log_parse_line(), taint_log_parse(), taint_unescape(),
 *             taint_escape(), taint_escape_word()
 *   proc_file.c  taint_proc_path() (and the file reader of proc.c and
 *             sos.c)
 *   proc.c    taint_read_mask(), taint_read_log(), taint_mark(),
 *             taint_validate_reason(), taint_read_modules()
 *   sos.c     taint_read_log_path() (and a sosreport's log for
 *             taint_read_log())
 *   live.c    taint_utc_seconds(), taint_event_same(), taint_first_event(),
 *             taint_events_digest(), taint_read_boot_id(),
 *             taint_cursor_format(), taint_cursor_parse(),
 *             taint_watch_open/wait/changed/support/close()
 *   vmcore_status.c  taint_vmcore_read_status() (kallsyms.c, vmcore_btf.c,
 *             vmcore_pgtable.c under it)
 *   vmcore.c  taint_vmcore_read_log() (with vmcore_dump.c and the
 *             readers under it, vmcoreinfo.c, kallsyms.c: see
 *             vmcore_internal.h)
 *   record.c  the recorder's log: taint_record_format_event/begin/lost(),
 *             taint_record_parse_note(), taint_record_log_path() (in
 *             proc_file.c), taint_log_get_recording() (in log_object.c)
 *   log_object.c  struct taint_log, a taint log as an object:
 *             taint_log_new_from_proc/file/fd/text/vmcore(),
 *             taint_log_ref/unref(), taint_log_get_event_count/event/
 *             dropped/malformed/problem(), taint_log_first_event(),
 *             taint_log_cursor(), taint_log_since()
 */
#ifndef TAINT_H
#define TAINT_H

/*
 * TAINT_LIVE_ROOT: where the live system's /proc and /sys are, "" (the real
 * ones) unless the build says otherwise. The test build (build/asan/) sets
 * a directory that does not exist, so that a test that loses its --root
 * can never read or write the test machine's own /proc.
 */
#ifndef TAINT_LIVE_ROOT
#define TAINT_LIVE_ROOT ""
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Using it: #include <taint/taint.h>, and build with
 *   cc prog.c $(pkg-config --cflags --libs libtaint)
 * The library is LGPL-2.1-or-later (COPYING.LGPL); the taintctl command is
 * GPL-2.0-or-later.
 *
 * ABI rules (libtaint.so.1, symbol version LIBTAINT_1.0):
 *  - Functions are never removed and their signatures never change within
 *    soname 1; functions added after 1.0.0 is released get a new version
 *    node (LIBTAINT_1.1, ...) in lib/libtaint.sym.  Only the functions
 *    declared here are exported; everything else is local to the library.
 *  - Structs the caller allocates and passes (struct taint_field,
 *    taint_event, taint_scan_opts, taint_scan_info, taint_log_ops,
 *    taint_cursor, taint_window) start with a size_t .size that the caller sets to
 *    sizeof(the struct), with TAINT_INIT(), e.g.
 *        struct taint_field f = TAINT_INIT(struct taint_field);
 *    or, for a struct of options, with designated initializers:
 *        struct taint_scan_opts o = { .size = sizeof(o), .hit = fn };
 *    New members are only ever appended; existing members never move nor
 *    change type or array size (a longer text would come as a new member).
 *    The library uses only the first .size bytes: it reads options up to
 *    .size (members past it count as 0), and it fills at most .size bytes
 *    of a result and then sets .size to the number it filled, so
 *    TAINT_HAS(type, ptr, member) tells whether @member was filled.  A
 *    .size of 0 means the 1.0 layout (a zero-initialized struct of 1.0 keeps
 *    working); a .size smaller than the 1.0 layout is -EINVAL; a .size
 *    larger than the library knows is -E2BIG for options whose unknown tail
 *    is not all zero (the caller asked for something this library cannot
 *    do), and fine for results.  Never leave .size uninitialized.
 *  - Structs the library hands out (struct taint_flag_info, taint_hit, and
 *    the taint_field/taint_event passed to callbacks, whose .size the
 *    library sets) may grow at their end; read them through the pointer.
 *  - struct taint_module is returned as an array, so its size is frozen:
 *    a module with more to say would come from a new function.
 *  - Enums may gain values: handle an unknown value (a newer format, a
 *    newer compression) as "unknown", not as an error.
 *  - TAINT_KNOWN_FLAGS and TAINT_KNOWN_MASK are what this header knows; the
 *    library you run may know more flags.  taint_flag_info(),
 *    taint_unknown_bits() and taint_mask_letters() answer with the library's
 *    table (a 65-byte buffer always holds taint_mask_letters()' result).
 *  - The *_MAX constants size the arrays of the structs above: frozen.
 *  - A function that takes an array of a sized struct also takes the size
 *    of an element (or that struct is frozen like taint_module).  A copy,
 *    by value, of a struct the library handed out keeps the library's
 *    .size: set it to sizeof(the copy) (or keep the library's if that is
 *    smaller) before passing the copy back.
 *  - taint_version() is the version of the library that runs;
 *    TAINT_VERSION and TAINT_VERSION_MAJOR/MINOR/PATCH are the header's.
 */

/* The version of this header (taint_version(): of the running library). */
#define TAINT_VERSION_MAJOR 1
#define TAINT_VERSION_MINOR 0
#define TAINT_VERSION_PATCH 0
#define TAINT_STR_(x) #x
#define TAINT_XSTR_(x) TAINT_STR_(x)
#define TAINT_VERSION TAINT_XSTR_(TAINT_VERSION_MAJOR) "." \
	TAINT_XSTR_(TAINT_VERSION_MINOR) "." TAINT_XSTR_(TAINT_VERSION_PATCH)

/**
 * taint_version() - the version of the libtaint that runs, "1.0.0": may be
 * newer than the TAINT_VERSION a program was built with.
 */
const char *taint_version(void);

/*
 * Sized structs (see "ABI rules" above): TAINT_INIT(struct taint_field) is
 * an initializer that sets .size; TAINT_HAS(struct taint_event, ev, module)
 * is true when the library filled ev->module.
 */
#define TAINT_INIT(type) { .size = sizeof(type) }
#define TAINT_HAS(type, p, member) \
	((p)->size >= offsetof(type, member) + sizeof(((type *)0)->member))

/* Number of flags libtaint knows by name: mainline bits 0 (P) .. 19 (J). */
#define TAINT_KNOWN_FLAGS 20
/* Mask of the bits libtaint knows by name. */
#define TAINT_KNOWN_MASK ((UINT64_C(1) << TAINT_KNOWN_FLAGS) - 1)

/* ------------------------------------------------------------------------
 * Flag table (flags.c)
 */

/**
 * struct taint_flag_info - one kernel taint flag.
 * @letter:      letter printed in the "Tainted:" field when the flag is set
 * @bit:         bit number in /proc/sys/kernel/tainted
 * @name:        kernel macro name without the TAINT_ prefix, as the verbose
 *               form prints it ("PROPRIETARY_MODULE", "WARN", ...)
 * @description: one-line explanation, after the table in mainline
 *               Documentation/admin-guide/tainted-kernels.rst
 */
struct taint_flag_info {
	char letter;
	unsigned int bit;
	const char *name;
	const char *description;
};

/** taint_flag_info() - the flag at @bit, or NULL if libtaint does not know it. */
const struct taint_flag_info *taint_flag_info(unsigned int bit);

/**
 * taint_flag_by_letter() - the flag printed as @letter, or NULL.
 * 'G' (the "no proprietary module" placeholder of bit 0) is not a flag and
 * yields NULL, as does every letter not in the table.
 */
const struct taint_flag_info *taint_flag_by_letter(char letter);

/**
 * taint_mask_letters() - write the letters of the known flags set in @mask,
 * in bit order, NUL-terminated, into @buf (at least TAINT_KNOWN_FLAGS + 1
 * bytes for a complete result).  Returns the number of letters written.
 */
size_t taint_mask_letters(uint64_t mask, char *buf, size_t size);

/** taint_unknown_bits() - the bits of @mask that libtaint has no name for. */
uint64_t taint_unknown_bits(uint64_t mask);

/**
 * taint_letters_to_mask() - convert a string of flag letters ("PWO") to a mask.
 * 'G' is accepted and adds nothing.  Returns 0, or -EINVAL on the first
 * character that is not a known letter; that character is stored in *@bad
 * when @bad is not NULL.  An empty string gives mask 0.
 */
int taint_letters_to_mask(const char *letters, uint64_t *mask, char *bad);

/**
 * taint_flag_by_name() - the flag named by the @len bytes at @name, or NULL.
 * Names are the kernel's ("PROPRIETARY_MODULE", "WARN"), matched without
 * regard to ASCII case, with or without a "TAINT_" prefix.
 */
const struct taint_flag_info *taint_flag_by_name(const char *name, size_t len);

/**
 * taint_flags_to_mask() - convert a list of flags as a user gives them to a
 * mask: items separated by commas or blanks, each a flag name (see
 * taint_flag_by_name()) or a string of letters ("PO").  An item that is a
 * name is read as the name, so "DIE" is bit 7, not D, I and E.  'G' is
 * accepted in letters and adds nothing; an empty list gives mask 0.
 * Returns 0, or -EINVAL on the first item that is neither; its offset in
 * @spec and length go to *@bad_at and *@bad_len when not NULL.
 */
int taint_flags_to_mask(const char *spec, uint64_t *mask, size_t *bad_at,
			size_t *bad_len);

/* ------------------------------------------------------------------------
 * Numbers (value.c)
 */

/**
 * taint_parse_value() - parse a taint mask written as the kernel's sysctl
 * reads /proc/sys/kernel/tainted (proc_doulongvec_minmax(), base 0): 0x/0X
 * and a hexadecimal digit is hexadecimal, another leading 0 is octal
 * ("01201" is 641), else decimal; no sign; at most 20 characters, prefix
 * included.  Optional blanks around it and at most one trailing newline (so
 * the content of /proc/sys/kernel/tainted parses).
 * Returns 0, -EINVAL (empty, sign, garbage, a digit the base has not, more
 * than 20 characters) or -ERANGE (over 64 bits).
 */
int taint_parse_value(const char *s, uint64_t *mask);

/**
 * taint_parse_saved_mask() - parse the text of a saved copy of the mask:
 * a file that holds /proc/sys/kernel/tainted (one number, read as
 * taint_parse_value() reads it) or its sysctl line ("kernel.tainted =
 * 4609", as sysctl -a prints it, or "kernel.tainted=4609").  Blanks
 * around it, LF or CR LF line ends, blank lines before and after it, a
 * UTF-8 byte order mark and UTF-16 (LE or BE, with or without a byte order
 * mark: what Windows tools write) are accepted; anything else (a second
 * number, a word, a NUL byte) is not one.
 * Returns 0, -EINVAL (not one number) or -ERANGE (over 64 bits).
 */
int taint_parse_saved_mask(const void *text, size_t len, uint64_t *mask);

/* ------------------------------------------------------------------------
 * The "Tainted:" field of kernel reports (field.c)
 */

enum taint_format {
	TAINT_FORMAT_NOT_TAINTED,	/* "Not tainted" */
	TAINT_FORMAT_FIXED,		/* "Tainted: P        W  O" */
	TAINT_FORMAT_VERBOSE,		/* "Tainted: [P]=PROPRIETARY_MODULE, ..." */
};

#define TAINT_TEXT_MAX 1023
#define TAINT_UNKNOWN_LETTERS_MAX 26
#define TAINT_NAME_MAX 31

/**
 * struct taint_field - one decoded "Tainted:"/"Not tainted" field.
 * @size:       sizeof(struct taint_field), set by the caller (ABI rules)
 * @format:     which printed form it is
 * @tainted:    true for "Tainted:" (even when no flag letter is visible)
 * @positional: fixed form only: true if every letter sits at its canonical
 *              position (position N shows bit N, 'G' or 'P' at position 0),
 *              so letters at positions >= 20 are reported as (unknown)
 *              vendor bits; false if the field was squeezed or is synthetic
 *              and letters were decoded by identity instead
 * @mask:       the flags shown.  Known letters give their bit; in a
 *              positional field a letter at position N >= 20 gives bit N;
 *              '-' (vendor reserved position), ' ' and 'G' give nothing
 * @mask_known: @mask is the whole mask: false when the field is tainted
 *              but shows no flag ("Tainted: G", flags edited out) or shows
 *              unknown letters (their bits cannot be known)
 * @unknown_letters: letters that are not in the flag table and could not be
 *              placed by position (e.g. 'H' in a synthetic field, or the
 *              letter of an unknown verbose entry, such as a newer kernel's
 *              "[V]=UNSAFE_BPF"), NUL-terminated
 * @unknown_names: for each of @unknown_letters, the name the verbose form
 *              printed for it ("UNSAFE_BPF", at most TAINT_NAME_MAX bytes),
 *              or "" (fixed form)
 * @text:       the field as printed, from "Tainted:"/"Not tainted" to its
 *              last flag character (trailing blanks removed); a verbose list
 *              wrapped over several lines is joined with single blanks.
 *              NUL-terminated, truncated to TAINT_TEXT_MAX bytes
 * @text_len:   strlen(@text)
 * @consumed:   bytes of the input covered by the field
 * @lines:      number of input lines the field covers (> 1 only for a
 *              wrapped verbose list)
 */
struct taint_field {
	size_t size;
	enum taint_format format;
	bool tainted;
	bool positional;
	uint64_t mask;
	bool mask_known;
	char unknown_letters[TAINT_UNKNOWN_LETTERS_MAX + 1];
	char unknown_names[TAINT_UNKNOWN_LETTERS_MAX][TAINT_NAME_MAX + 1];
	char text[TAINT_TEXT_MAX + 1];
	size_t text_len;
	size_t consumed;
	unsigned int lines;
};

/**
 * taint_parse_field() - decode the field that starts at @s.
 * @s must begin with "Tainted:" or "Not tainted"; the field ends at the end
 * of the line (or of @len), at the first blank-separated word that is not
 * made of capital letters and '-' (the kernel release follows the field),
 * at a ')' or '"' closing it, or, for the verbose form, after the last
 * "[X]=NAME" entry.  A verbose list ending in ',' continues on the next line
 * if that line holds only blanks and quote marks ('>', '|') before its
 * first entry (never into a line with its own marker or a new printk
 * record).  Blanks are ' ', '\t' and U+00A0 (UTF-8, or a Latin-1 0xA0
 * byte), one column each.  The field width is never assumed.
 * Returns 0, or -EINVAL if @s does not start with a marker or the marker is
 * followed by prose rather than a kernel's field: a word that starts fewer
 * than 4 columns after the flags began and does not look like a release
 * ("Tainted: P but ...", "Tainted: yes").
 */
int taint_parse_field(const char *s, size_t len, struct taint_field *f);

/**
 * taint_parse_body() - decode a field without its "Tainted:" prefix, as a
 * user would type it: "P        W  O", "PWO", "G W" or "[U]=USER, [W]=WARN".
 * Returns 0, or -EINVAL if @s contains anything else (the offending byte's
 * offset is stored in *@bad_at when @bad_at is not NULL).  Unknown letters are
 * not an error here; they are listed in f->unknown_letters.
 */
int taint_parse_body(const char *s, size_t len, struct taint_field *f,
		     size_t *bad_at);

/**
 * taint_find_field() - find and decode the first report field in @s (one or
 * more lines of log text).  Occurrences that cannot be report fields are
 * skipped: a marker glued to a preceding letter or digit ("xTainted:"),
 * directly preceded by a quote character (' " `), which is how prose and
 * documentation quote the marker, or followed by prose (taint_parse_field()
 * returns -EINVAL).
 * Returns the offset of the field in @s, or -1 if there is none (-EINVAL
 * if @f->size breaks the ABI rules: any negative value means no field).
 */
long taint_find_field(const char *s, size_t len, struct taint_field *f);

/* ------------------------------------------------------------------------
 * Streaming scanner (scanner.c, source.c)
 */

/* What a hit is (more kinds may come: skip a kind you do not know). */
enum taint_hit_kind {
	TAINT_HIT_FIELD,	/* a Tainted:/Not tainted field: @field */
	TAINT_HIT_EVENT,	/* a report's "Taint X: <taint_log line>": @event, @letter */
	TAINT_HIT_BOOT,		/* a line that starts a new boot */
	TAINT_HIT_REPORT,	/* a kernel report's first line: @flags */
};

/**
 * struct taint_hit - one thing found by the scanner, in stream order.
 * @line:        1-based number of the line the hit starts on
 * @field:       FIELD: the decoded field (valid only during the callback),
 *               else NULL
 * The members below are only filled for scanners given TAINT_SCAN_EVENTS,
 * TAINT_SCAN_BOOTS or TAINT_SCAN_REPORTS (without them, every hit is a
 * FIELD):
 * @kind:        what was found
 * @letter:      EVENT: the X of "Taint X:"
 * @event:       EVENT: the rest of the line as taint_log_parse_line()
 *               parsed it (valid only during the callback)
 * @report_line: EVENT: the line of the report's Tainted: field the event
 *               belongs to, 0 if none (see below)
 * @text, @text_len: EVENT, BOOT, REPORT: the line from its marker
 *               ("Taint X:", "Linux version", "-- Boot", "WARNING:", ...)
 *               to its end, without "\n" or "\r\n" (not NUL-terminated;
 *               valid only during the callback)
 * @flags:       REPORT: the taint flags the kernel sets for such a report
 *               (a mask; 0 for a report that sets none, such as a panic)
 * The members below are only filled for scanners given TAINT_SCAN_BOOTS
 * (all valid only during the callback):
 * @host, @host_len: the host that logged the hit's line, from its syslog
 *               or journal prefix ("Dec  7 10:00:00 HOST kernel: ", the
 *               ISO 8601 and journalctl short forms; the word before
 *               "kernel:" after a time stamp, in the line's first 256
 *               bytes); NULL if the line names none.  A separator's is
 *               that of the line after it
 * @stamp_us:    the line's printk timestamp ("[  300.123456]" where the
 *               message starts, or a /dev/kmsg record's time) in
 *               microseconds; -1 if it has none
 * @release, @release_len: BOOT: the kernel release of its banner ("Linux
 *               version RELEASE", for a separator that of the banner on
 *               the line after it); FIELD: the word after the field when
 *               it starts with a digit ("... Tainted: G W 6.12.0 #1");
 *               else NULL
 *
 * EVENT: kernels with the taint log print, in each oops, panic and WARN
 * report, "Taint X: " and the first event of each flag X set, after the
 * report's "CPU: ... Tainted: ..." line.  A hit needs "Taint X: " where a
 * console message starts (line start, after "] ", ": " or ';': console,
 * syslog, journalctl, /dev/kmsg prefixes) and a line that parses as a
 * taint_log line; other "Taint X:" lines are no hit.  The report of an
 * event is its first field line (a field on the line right after another
 * is the same report), until a letter repeats (a report that printed no
 * field of its own, such as a panic after an oops: 0) or a boot starts.
 * Anyone who can write to the log (/dev/kmsg) can forge such a line: an
 * event is only as trustworthy as the log it comes from.
 * BOOT: "Linux version " where a message starts (the first line of every
 * boot), or journalctl's whole-line separators "-- Boot ID --" and
 * "-- Reboot --"; the "Linux version" line right after a separator is the
 * same boot (one hit).  With TAINT_SCAN_REPORTS too, the reboot after a
 * panic ("Kernel panic - not syncing" with a printk timestamp): within
 * the 1000 lines after it, the first line of the same host whose
 * timestamp is below the panic's, where no banner was logged (a console
 * with "quiet"); @text is that line.  Stamps that go back elsewhere are
 * left to the caller, which may judge them per host (check --from does).
 * REPORT: the first line of a kernel report, where a message starts:
 * "WARNING: CPU: ..." (W), "Oops: ", "Internal error: ", "general
 * protection fault", "kernel BUG at", "BUG: kernel NULL pointer
 * dereference", "BUG: unable to handle" (D), "BUG: soft lockup" (L),
 * "BUG: KASAN:", "BUG: KFENCE:", "BUG: Bad page state/map" (B), "BUG:
 * scheduling while atomic", "BUG: sleeping function called from invalid
 * context" (W); other "WARNING: " and "BUG: " lines and "Kernel panic -
 * not syncing" are reports with no flag.  The kernel sets the flag after
 * the report's own Tainted: field, so a log's last report shows it only
 * here.
 */
struct taint_hit {
	uint64_t line;
	const struct taint_field *field;
	/* appended (only reported with the scan flags below): */
	enum taint_hit_kind kind;
	char letter;
	const struct taint_event *event;
	uint64_t report_line;
	const char *text;
	size_t text_len;
	uint64_t flags;
	/* appended (filled with TAINT_SCAN_BOOTS): */
	const char *host;
	size_t host_len;
	int64_t stamp_us;
	const char *release;
	size_t release_len;
};

/* Also report TAINT_HIT_EVENT / TAINT_HIT_BOOT / TAINT_HIT_REPORT
 * (taint_scanner_set_flags(), struct taint_scan_opts' @flags). */
#define TAINT_SCAN_EVENTS  0x8u
#define TAINT_SCAN_BOOTS   0x10u
#define TAINT_SCAN_REPORTS 0x40u

/* Callback for each hit; a non-zero return stops the scan and is returned. */
typedef int (*taint_hit_fn)(const struct taint_hit *hit, void *arg);

struct taint_scanner;

/**
 * taint_scanner_new() - a scanner for one stream; NULL if out of memory.
 * The scanner uses a fixed buffer (a few MiB at most): memory does not
 * grow with the input, lines of any length and any bytes (NULs included)
 * are accepted.  Hits are found as taint_find_field() finds them.
 */
struct taint_scanner *taint_scanner_new(void);

/**
 * taint_scanner_feed() - pass the next @len bytes of the stream.  Hits are
 * reported in blocks (about every MiB), which is fastest for files.
 */
int taint_scanner_feed(struct taint_scanner *sc, const void *data, size_t len,
		       taint_hit_fn fn, void *arg);

/**
 * taint_scanner_feed_lines() - like taint_scanner_feed(), then report the
 * hits of every complete line fed so far: for input that arrives line by
 * line (dmesg -w, a pipe, a terminal).  A verbose list ending in ',' is
 * reported once the next line is complete (it may continue there).
 */
int taint_scanner_feed_lines(struct taint_scanner *sc, const void *data,
			     size_t len, taint_hit_fn fn, void *arg);

/**
 * taint_scanner_set_flags() - TAINT_SCAN_EVENTS and/or TAINT_SCAN_BOOTS
 * (other bits are ignored) for the hits of the next feed()/finish() calls;
 * set it before the first feed.  Default 0: fields only.
 */
void taint_scanner_set_flags(struct taint_scanner *sc, unsigned int flags);

/** taint_scanner_finish() - end of stream: report the remaining hits. */
int taint_scanner_finish(struct taint_scanner *sc, taint_hit_fn fn, void *arg);

/** taint_scanner_free() - free @sc (NULL is fine). */
void taint_scanner_free(struct taint_scanner *sc);

/* Compressed input, told by its magic bytes (never by a file name). */
enum taint_compression {
	TAINT_COMPRESSION_NONE,
	TAINT_COMPRESSION_GZIP,		/* zlib */
	TAINT_COMPRESSION_XZ,		/* liblzma */
	TAINT_COMPRESSION_ZSTD,		/* libzstd */
	TAINT_COMPRESSION_BZIP2,	/* libbz2 */
	TAINT_COMPRESSION_LZ4,		/* liblz4, frame format */
	/* recognized, never read (-ENOTSUP, "compressed with ...") */
	TAINT_COMPRESSION_LZ4_LEGACY,	/* lz4 -l, the kernel image format */
	TAINT_COMPRESSION_LZO,		/* lzop */
	TAINT_COMPRESSION_LZMA,		/* LZMA-alone (.lzma, lzma -z) */
	TAINT_COMPRESSION_COMPRESS,	/* compress(1), .Z */
};

/**
 * taint_compression_name() - "gzip", "xz", "zstd", "bzip2", "lz4",
 * "lz4-legacy", "lzo", "lzma", "compress" or "none".
 */
const char *taint_compression_name(enum taint_compression c);

/**
 * struct taint_compression_info - a compressed format libtaint knows: the
 * one table its decompressor, its crash dump reader (which names the
 * format of a compressed dump) and taintctl's help and man page go by.
 * @id:        its value
 * @name:      taint_compression_name()'s
 * @magic:     the bytes its data starts with, @magic_len of them (bzip2's
 *             "BZh" is followed by a digit 1-9, which @magic leaves out)
 * @readable:  this libtaint decompresses it (taint_scan_fd_opts(),
 *             taint_log_new_from_fd()); false: it is recognized and
 *             refused (-ENOTSUP), a format libtaint never reads or one
 *             whose library this build was made without
 * @tool:      the command that writes such data decompressed to standard
 *             output ("xz -dc"), for a message that says how to
 *             decompress it
 */
struct taint_compression_info {
	enum taint_compression id;
	const char *name;
	const char *magic;
	size_t magic_len;
	bool readable;
	const char *tool;
};

/**
 * taint_compression_info() - what libtaint knows of the format @c, or NULL
 * for TAINT_COMPRESSION_NONE and a value it does not know.  The formats
 * are the values from TAINT_COMPRESSION_NONE + 1 up to the first that
 * gives NULL, in the order of enum taint_compression (so a list of those
 * it reads is "gzip, xz, zstd, bzip2 and lz4").
 */
const struct taint_compression_info *
taint_compression_info(enum taint_compression c);

/**
 * taint_read_text() - all of @fd, as text, as the scanner reads it: gzip,
 * xz, zstd, bzip2 and lz4 data decompressed, UTF-16 (LE or BE, with or
 * without a byte order mark) transcoded to UTF-8, a UTF-8 byte order mark
 * dropped.  *@text is malloc()ed and NUL-terminated (the text may hold
 * NUL bytes: *@len counts them all).
 * Returns 0 or a negative errno: -EFBIG (more than @max bytes of text),
 * -EBADMSG (corrupt or truncated compressed data), -ENOTSUP (a format or
 * an encoding recognized and not read: lzo, UTF-32...), each with a
 * one-line description in @why (@why_size bytes, "" if none), -ENOMEM,
 * a read() error.
 */
int taint_read_text(int fd, size_t max, char **text, size_t *len, char *why,
		    size_t why_size);

/* Flags of struct taint_scan_opts. */
#define TAINT_SCAN_LINES  0x1u	/* report each line's hits once it is read */
#define TAINT_SCAN_BLOCKS 0x2u	/* read big blocks (fastest, hits come late) */
#define TAINT_SCAN_RAW    0x4u	/* never decompress */
/* 0x8u, 0x10u, 0x40u: TAINT_SCAN_EVENTS, _BOOTS, _REPORTS (above) */
#define TAINT_SCAN_NOMAP  0x20u	/* read() a regular file, never mmap() it */

/**
 * struct taint_scan_opts - how taint_scan_fd_opts() reads.
 * @size:  sizeof(struct taint_scan_opts) (ABI rules; 0: the 1.0 layout)
 * @flags: TAINT_SCAN_*; with neither LINES nor BLOCKS, lines for a pipe,
 *         FIFO, terminal or socket, blocks for a regular file or a block
 *         device.  In block mode a regular file of plain data is mapped
 *         (mmap(), from the descriptor's offset to the size it has when the
 *         scan starts; the offset is left at that end): fastest, but if
 *         another process truncates the file during the scan, the process
 *         gets SIGBUS.  TAINT_SCAN_NOMAP reads it instead.
 * @hit:   called for each hit
 * @flush: line mode: called after the hits of each read (e.g. to fflush()
 *         the output); a non-zero return stops the scan.  May be NULL
 * @arg:   passed to @hit and @flush
 * @prefix:     bytes the caller already read from the fd (to sniff it):
 *              the stream starts with them, then goes on with the fd
 * @prefix_len: their number, at most TAINT_SCAN_PREFIX_MAX (-EINVAL)
 */
struct taint_scan_opts {
	size_t size;
	unsigned int flags;
	taint_hit_fn hit;
	int (*flush)(void *arg);
	void *arg;
	const void *prefix;
	size_t prefix_len;
};

#define TAINT_SCAN_PREFIX_MAX 4096

/**
 * struct taint_scan_info - what taint_scan_fd_opts() found.
 * @size:        sizeof(struct taint_scan_info), set by the caller
 * @compression: the input's format
 * @lines:       line mode was used
 * @error:       for -EBADMSG (corrupt or truncated compressed data) and
 *               -ENOTSUP (a format this build cannot read): a description
 *               ("truncated gzip data: unexpected end of input"), else ""
 */
struct taint_scan_info {
	size_t size;
	enum taint_compression compression;
	bool lines;
	char error[160];
};

/**
 * taint_scan_fd_opts() - scan everything readable from @fd, decompressing
 * gzip, xz, zstd, bzip2 and lz4 (frame format) data (concatenated
 * members/streams/frames included); lz4's legacy format, lzo, LZMA-alone
 * and compress(1) data are told from plain text and refused (-ENOTSUP).
 * Returns 0, the callback's non-zero value, -ENOMEM, -EBADMSG or -ENOTSUP
 * (see @info->error), the negative errno of a failed fstat()/read(), or
 * -EINVAL/-E2BIG for a .size of @opts or @info that breaks the ABI rules.
 * On an error, the hits in the data read before it are reported first.
 * @info may be NULL.  A mapped regular file of 32 MiB or more, on a
 * machine with two CPUs or more, has its page tables filled ahead of the
 * pass by a second thread (it blocks every signal, touches no byte and is
 * joined before the call returns; link with -pthread, as libtaint.pc says).
 */
int taint_scan_fd_opts(int fd, const struct taint_scan_opts *opts,
		       struct taint_scan_info *info);

/**
 * taint_scan_fd() - taint_scan_fd_opts() with default flags: decompress,
 * lines for a pipe or terminal, blocks for a file.
 */
int taint_scan_fd(int fd, taint_hit_fn fn, void *arg);

/* ------------------------------------------------------------------------
 * The kernel's taint log, /proc/sys/kernel/taint_log (log.c)
 *
 * One line per event, docs/abi.md section 1.3 (format v2):
 *   ts=<sec.usec> utc=<YYYY-MM-DDTHH:MM:SSZ|-> origin=<kernel|user>
 *   flags=<letters|-> new=<letters|-> pid=<tgid> uid=<n> auid=<n|->
 *   comm="<escaped>" [module=<escaped, unquoted>]
 *   [caller=<symbol+0xoff/0xsize>] [reason="<escaped>"]
 * and a last line "dropped=<n>" when n > 0.  Escapes: \\, \" and \xNN for
 * every byte outside 0x20..0x7e; in the unquoted module= also a space
 * (\x20).  Version 1 lines (no auid=, no module=, a caller that may end in
 * " [module]") parse too: a field the line does not have is marked absent.
 */

#define TAINT_COMM_MAX 64	/* unescaped bytes */
#define TAINT_MODULE_MAX 64	/* unescaped bytes (MODULE_NAME_LEN is 56) */
#define TAINT_REASON_MAX 128	/* unescaped bytes, as the kernel accepts */
#define TAINT_CALLER_MAX 255

enum taint_origin {
	TAINT_ORIGIN_KERNEL,
	TAINT_ORIGIN_USER,
};

/**
 * struct taint_event - one parsed taint_log line.  Strings are unescaped and
 * NUL-terminated; comm, module and reason may contain any byte (NUL
 * included), so their lengths are given.  @flags/@new_flags are the letters
 * as logged ("" for "-"), @flags_mask/@new_mask their known bits.
 * @size:       sizeof(struct taint_event): set by the caller of
 *              taint_log_parse_line(), by the library for taint_log_parse()'s
 *              callback (ABI rules)
 * @pid:        the process (thread group) id, as ps shows it
 * @has_auid:   the line has auid= (format v2); @auid_set is false for
 *              "auid=-" (no login uid), else @auid holds it
 * @has_module: the line has module= (v2, kernel events only)
 * @has_caller: the line has caller= (kernel events only); a v1 caller keeps
 *              its " [module]" suffix in @caller
 * @unknown_fields counts key=value fields this version does not know (the
 * event is still valid; @unknown_field names the first one).
 */
struct taint_event {
	size_t size;
	char ts[32];
	char utc[24];
	enum taint_origin origin;
	char flags[65];
	char new_flags[65];
	uint64_t flags_mask;
	uint64_t new_mask;
	uint32_t pid;
	uint32_t uid;
	bool has_auid;
	bool auid_set;
	uint32_t auid;
	char comm[TAINT_COMM_MAX + 1];
	size_t comm_len;
	bool has_module;
	char module[TAINT_MODULE_MAX + 1];
	size_t module_len;
	bool has_caller;
	char caller[TAINT_CALLER_MAX + 1];
	bool has_reason;
	char reason[TAINT_REASON_MAX + 1];
	size_t reason_len;
	unsigned int unknown_fields;
	char unknown_field[32];
};

enum taint_log_line {
	TAINT_LOG_EVENT = 1,	/* *ev filled */
	TAINT_LOG_DROPPED = 2,	/* *dropped filled */
};

/**
 * taint_log_parse_line() - parse one line (without its newline).
 * Fields may come in any order, but each at most once; ts, utc, origin,
 * flags, new, pid, uid and comm are required.  reason= on a kernel event and
 * module= on a user event are errors.
 * Returns TAINT_LOG_EVENT, TAINT_LOG_DROPPED, or -EINVAL with a static
 * English description of the first problem in *@why (also for an @ev->size
 * smaller than the 1.0 layout).
 */
int taint_log_parse_line(const char *line, size_t len, struct taint_event *ev,
			 uint64_t *dropped, const char **why);

/**
 * struct taint_log_ops - callbacks of taint_log_parse().
 * @size:    sizeof(struct taint_log_ops) (ABI rules; 0: the 1.0 layout)
 * @event:   called for each well-formed event line, in order; a non-zero
 *           return stops parsing and is returned
 * @problem: called for each malformed line (@fatal true: the line was
 *           skipped) and for each event with unknown fields (@fatal false:
 *           the event was still passed to @event); may be NULL
 */
struct taint_log_ops {
	size_t size;
	int (*event)(const struct taint_event *ev, unsigned int lineno,
		     void *arg);
	void (*problem)(unsigned int lineno, bool fatal, const char *msg,
			void *arg);
};

/**
 * taint_log_parse() - parse a whole taint_log text.  Lines end in LF or in
 * CR LF (a copy saved on Windows).  A "dropped=" line that
 * is not the last line is reported as malformed.  *@dropped is set to the
 * dropped count (0 when the line is absent).  Returns the number of
 * malformed lines (0 when all is well) or the callback's non-zero value
 * (negative values only), or -EINVAL/-E2BIG for an @ops->size that breaks
 * the ABI rules.
 */
int taint_log_parse(const char *buf, size_t len,
		    const struct taint_log_ops *ops, void *arg,
		    uint64_t *dropped);

/**
 * taint_unescape() - undo the kernel's quoting of comm/reason: @s points
 * just after the opening '"'.  Accepts printable ASCII, \\ \" and \xNN.
 * Writes at most @size - 1 bytes plus a NUL to @out and the unescaped length
 * to *@out_len; *@used is the number of bytes of @s consumed, closing quote
 * included.  Returns 0, -EINVAL (bad escape, raw control byte, missing
 * closing quote) or -E2BIG (more than @size - 1 bytes).
 */
int taint_unescape(const char *s, size_t len, char *out, size_t size,
		   size_t *out_len, size_t *used);

/**
 * taint_escape() - quote @len bytes of @s the way the kernel does (\\, \",
 * \xNN for bytes outside 0x20..0x7e) into @out, NUL-terminated; returns
 * the length the full result needs (like snprintf).
 */
size_t taint_escape(const char *s, size_t len, char *out, size_t size);

/**
 * taint_escape_word() - like taint_escape(), for an unquoted field such as
 * module=: a space also becomes \x20, so the result holds no blank.
 */
size_t taint_escape_word(const char *s, size_t len, char *out, size_t size);

/* ------------------------------------------------------------------------
 * The running kernel (proc.c).  @proc_root is the procfs mount point; NULL
 * means "/proc".  Tests point it at a directory of fake files.
 */

/** taint_proc_path() - "<root>/sys/kernel/<name>" into @buf; -ENAMETOOLONG. */
int taint_proc_path(const char *proc_root, const char *name, char *buf,
		    size_t size);

/**
 * taint_read_mask() - read <root>/sys/kernel/tainted, as
 * taint_parse_saved_mask() reads it (a copy's CR LF too).  -errno, -EINVAL,
 * -ERANGE.
 */
int taint_read_mask(const char *proc_root, uint64_t *mask);

/**
 * taint_read_log() - read the whole of <root>/sys/kernel/taint_log into a
 * malloc()ed, NUL-terminated buffer (the caller frees it).  -ENOENT means the
 * kernel keeps no taint log (a stock kernel); -EFBIG if over 4 MiB.
 *
 * A sosreport has no copy of taint_log, but its `sysctl -a` output has the
 * log's text: where <root>/sys/kernel/taint_log does not exist and
 * @proc_root is "<top>/proc" of a copied tree (not NULL, not the live
 * /proc, not a procfs mount), the text is that of the "kernel.taint_log = "
 * lines of <top>/sos_commands/kernel/sysctl_-a, in order, with that prefix
 * stripped.  -ENOENT also if that file does not exist or has no such line
 * (a stock kernel's sosreport; an empty log prints no line either).
 */
int taint_read_log(const char *proc_root, char **buf, size_t *len);

/**
 * taint_read_log_path() - the file taint_read_log() reads under @proc_root
 * now, into @buf, to name it in messages: <root>/sys/kernel/taint_log, or
 * a sosreport's sysctl_-a when the log is read from there (then the line
 * numbers of taint_log_get_problem() for taint_log_new_from_proc() are
 * that file's).  Where there is no log, the proc file that does not exist.
 * 0, or -ENAMETOOLONG if it does not fit in @size bytes.
 */
int taint_read_log_path(const char *proc_root, char *buf, size_t size);

/**
 * taint_validate_reason() - 0 if @reason is 1..128 bytes of printable ASCII
 * (0x20..0x7e), as /proc/sys/kernel/taint_reason requires; else -EINVAL
 * (empty or bad byte, offset in *@bad_at if not NULL) or -E2BIG (too long).
 */
int taint_validate_reason(const char *reason, size_t len, size_t *bad_at);

/**
 * taint_mark() - set the U flag with a reason: one write of @reason to
 * <root>/sys/kernel/taint_reason.  If that file does not exist (stock
 * kernel) write "64" to <root>/sys/kernel/tainted instead and set
 * *@fell_back (the reason is then stored nowhere).  The reason is validated
 * first (see taint_validate_reason()) and nothing is written if it is bad.
 * Returns 0 or -errno; on a failed open/write, the path involved is copied
 * to @failed_path (@failed_size bytes, may be 0).
 */
int taint_mark(const char *proc_root, const char *reason, bool *fell_back,
	       char *failed_path, size_t failed_size);

/* ------------------------------------------------------------------------
 * The loaded modules' taint, /sys/module/<name>/taint (proc.c).  @sys_root
 * is the sysfs mount point; NULL means "/sys".
 */

/**
 * struct taint_module - a loaded module that carries taint.  Returned as an
 * array: its layout is frozen (no .size; see the ABI rules).
 * @name:  its directory name in <sys_root>/module
 * @taint: the letters the kernel prints for it ("PO"), as read, without
 *         the newline, NUL-terminated, truncated to 63 bytes
 * @mask:  the known flags among @taint (letters libtaint does not know
 *         are kept in @taint only)
 */
struct taint_module {
	char name[256];
	char taint[64];
	uint64_t mask;
};

/**
 * taint_read_modules() - every module whose <sys_root>/module/NAME/taint is
 * not empty, sorted by name, in a malloc()ed array (the caller frees it;
 * NULL when *@count is 0).  Built-in modules (no taint file) and files that
 * cannot be read are left out.  Returns 0 or -errno if <sys_root>/module
 * cannot be opened (-ENOENT: no sysfs there), -ENOMEM.
 */
int taint_read_modules(const char *sys_root, struct taint_module **mods,
		       size_t *count);

/* ------------------------------------------------------------------------
 * The kernel's taint over time (live.c): events compared and dated,
 * cursors (a position in the taint log), waiting for a change.
 */

/**
 * taint_utc_seconds() - the wall time of a taint_log "utc=" value
 * (struct taint_event.utc, "2026-12-03T08:00:00Z") in seconds since
 * 1970-01-01 00:00:00 UTC.  Returns 0, -ENODATA for "-" (the kernel's clock
 * was not set yet when the event was recorded) or -EINVAL (not a valid
 * date and time in that exact form).
 */
int taint_utc_seconds(const char *utc, int64_t *secs);

/**
 * taint_event_same() - whether @a and @b are the same event of one log,
 * read twice.  Compares everything the kernel records when the event
 * happens (ts, utc, origin, flags, new, pid, uid, auid, comm, reason), not
 * caller=, which the kernel resolves when the log is read (a caller in a
 * module that was unloaded since is no longer named), nor module=, which
 * goes with it.  False also if the .size of @a or @b breaks the ABI rules.
 */
bool taint_event_same(const struct taint_event *a,
		      const struct taint_event *b);

/*
 * Arrays of events (taint_first_event(), taint_events_digest()): @ev[0..@n)
 * as the caller keeps them, copies of what taint_log_parse() handed out or
 * what taint_log_parse_line() filled; @elem_size is the size of one
 * element, sizeof(ev[0]) (an element is @elem_size bytes after the one
 * before it).  Each element's .size follows the ABI rules (a copy's .size:
 * see there) and is at most @elem_size.  -EINVAL if @elem_size is smaller
 * than the 1.0 layout or an element's .size breaks these rules.
 */

/**
 * taint_first_event() - the index in @ev[0..@n) of the event that set
 * flag @bit first (the first whose new flags hold it), or -1 if none does
 * (a stock kernel, a log read before the event was published, a bit that
 * has no letter); -EINVAL (see "Arrays of events"): any negative value
 * means no event.
 */
long taint_first_event(const struct taint_event *ev, size_t n,
		       size_t elem_size, unsigned int bit);

/**
 * taint_events_digest() - a 32-bit digest (FNV-1a) of the identity of
 * @ev[0..@n), as taint_event_same() sees it, into *@digest: two reads of a
 * log agree on the digest of their first @n events if they hold the same
 * events there.  Returns 0 or -EINVAL (see "Arrays of events").
 */
int taint_events_digest(const struct taint_event *ev, size_t n,
			size_t elem_size, uint32_t *digest);

/* Length of a boot id: a UUID, 8-4-4-4-12 hexadecimal digits. */
#define TAINT_BOOT_ID_LEN 36

/**
 * taint_read_boot_id() - read <root>/sys/kernel/random/boot_id (@proc_root
 * NULL: /proc), the random id the kernel draws at each boot, into @id
 * (lower case, NUL-terminated; @size at least TAINT_BOOT_ID_LEN + 1).
 * Returns 0, -errno of open/read, -EINVAL if the file does not hold a
 * UUID and a newline, or -ENOSPC.
 */
int taint_read_boot_id(const char *proc_root, char *id, size_t size);

/* Room for the text of a cursor, NUL included. */
#define TAINT_CURSOR_MAX 128

/**
 * struct taint_cursor - a point in the life of one boot's taint state, so
 * that a later call can tell what was set after it.
 * @size:    sizeof(struct taint_cursor), set by the caller (ABI rules):
 *           options for taint_cursor_format(), a result of
 *           taint_cursor_parse()
 * @boot_id: the boot it belongs to (taint_read_boot_id())
 * @events:  number of event lines the taint log had (0: no log)
 * @dropped: the log's dropped= count then
 * @mask:    the taint mask then
 * @digest:  taint_events_digest() of those @events events: a later log
 *           that does not begin with them is not the same log
 */
struct taint_cursor {
	size_t size;
	char boot_id[TAINT_BOOT_ID_LEN + 1];
	uint64_t events;
	uint64_t dropped;
	uint64_t mask;
	uint32_t digest;
};

/**
 * taint_cursor_format() - the text form of @c into @buf: one word of
 * lower-case letters, digits and '-' ("tc1-<boot id without dashes>-
 * <events>-<dropped>-<mask in hex>-<digest, 8 hex digits>"), to be handed
 * back to taint_cursor_parse() as it is.  Returns its length, -EINVAL if
 * @c->boot_id is not a UUID, -ENOSPC (TAINT_CURSOR_MAX is enough), or
 * -EINVAL/-E2BIG for a @c->size that breaks the ABI rules (a newer
 * cursor's members that this library cannot write are -E2BIG unless 0).
 */
int taint_cursor_format(const struct taint_cursor *c, char *buf, size_t size);

/**
 * taint_cursor_parse() - the cursor written as taint_cursor_format()
 * writes it (exactly: no other spelling of the same numbers) into *@c
 * (@c->size set by the caller: TAINT_INIT(struct taint_cursor)).  Returns
 * 0 or -EINVAL (also for a @c->size smaller than the 1.0 layout); nothing
 * is written on an error.
 */
int taint_cursor_parse(const char *s, struct taint_cursor *c);

/* What a struct taint_watch knows of the kernel's poll() support. */
enum taint_poll_support {
	TAINT_POLL_UNKNOWN,	/* procfs files: not known before a change */
	TAINT_POLL_YES,		/* the kernel signalled a change */
	TAINT_POLL_NO,		/* not procfs (a --root tree), or a change
				 * came without a signal (a kernel without
				 * docs/abi.md 1.6, such as stock 6.12) */
};

struct taint_watch;

/**
 * taint_watch_open() - open <root>/sys/kernel/tainted and, if it exists,
 * taint_log, to wait for changes with taint_watch_wait().  Open the watch
 * before reading the state it is to be compared with: a change after the
 * open is never missed.  Files that are not on procfs (a fake or copied
 * tree) can never signal: support is TAINT_POLL_NO from the start.
 * Returns 0 and *@w (free with taint_watch_close()), -ENOENT if tainted
 * does not exist, -errno, -ENOMEM.  If taint_log exists but cannot be
 * opened, its errno goes to *@log_error (may be NULL; else 0) and only
 * tainted is watched.
 */
int taint_watch_open(const char *proc_root, struct taint_watch **w,
		     int *log_error);

/**
 * taint_watch_wait() - wait for a change: poll() the files for
 * POLLPRI|POLLERR (docs/abi.md 1.6, the sysctl poll convention).  Once the
 * kernel has signalled a change (TAINT_POLL_YES) this waits without a time
 * limit; before that (TAINT_POLL_UNKNOWN) at most @interval_ms, and with
 * TAINT_POLL_NO it just sleeps @interval_ms: the caller re-reads the state
 * after every return.  Returns 1 if a change was signalled, 0 if the time
 * is up, -EINTR if a signal came, -errno.
 */
int taint_watch_wait(struct taint_watch *w, int interval_ms);

/**
 * taint_watch_changed() - tell @w that a re-read after taint_watch_wait()
 * returned 0 found a change.  If support is still unknown, the files are
 * polled once more without waiting (the change may have come after the
 * timeout): a pending signal makes it TAINT_POLL_YES, none TAINT_POLL_NO.
 * Returns the support now.
 */
enum taint_poll_support taint_watch_changed(struct taint_watch *w);

/** taint_watch_support() - what @w knows of the kernel's poll() support. */
enum taint_poll_support taint_watch_support(const struct taint_watch *w);

/** taint_watch_close() - close the files and free @w (NULL is fine). */
void taint_watch_close(struct taint_watch *w);

/* ------------------------------------------------------------------------
 * A kernel crash dump (vmcore.c): the taint log of the kernel it was taken
 * of, found through VMCOREINFO (docs/abi.md 1.7), without debug information.
 */

/**
 * taint_vmcore_read_log() - the taint log of a crash dump, as the dumped
 * kernel's /proc/sys/kernel/taint_log would have shown it: a malloc()ed,
 * NUL-terminated text (the caller frees it) for taint_log_parse().
 * @fd:       the dump of an x86_64 kernel: an ELF core as kdump
 *            (/proc/vmcore, makedumpfile -E) and QEMU's dump-guest-memory
 *            write it, makedumpfile's kdump-compressed format (pages
 *            stored whole or compressed with zlib, lzo, snappy or zstd),
 *            or either in makedumpfile's flattened format (-F); read with
 *            pread(), so a regular file (not a pipe)
 * @buf, @len: the text and its length
 * @why:      for -EBADMSG, -ENOTSUP and -ENOENT, one line of English that
 *            says what is wrong with the dump (@why_size bytes, may be 0);
 *            else ""
 * The log is found and laid out by the dump's VMCOREINFO note alone
 * (SYMBOL(taint_events), NUMBER(phys_base), the LAYOUT(taint_log),
 * LAYOUT(taint_event), LAYOUT(taint_caller) and LAYOUT(taint_reason)
 * lines), each value checked before use.  A
 * kernel event's caller= is named with the kernel's symbol table (the
 * SYMBOL(kallsyms_*) keys) as the kernel names it, but left out when the
 * caller was a module's code (module= names the module), when the kernel
 * has no kallsyms, and for an address past the table's last symbol.
 * Returns 0; -ENOENT: the dumped kernel keeps no taint log (VMCOREINFO has
 * no SYMBOL(taint_events): no usertaint series, or CONFIG_TAINT_LOG=n);
 * -ENOTSUP: a dump this version cannot read (another architecture, 32-bit
 * or big-endian ELF, a flag bit it has no letter for, the log's layout of
 * an unreleased version of the series: a caller or reason inside each
 * slot, no LAYOUT(taint_caller)), or a compressed file (gzip, xz, zstd,
 * ...: a dump is read in place, never through a decompressor; @why names
 * the format and its taint_compression_info() tool);
 * -EBADMSG: not an ELF core, or one truncated where the log is, without
 * VMCOREINFO, or whose VMCOREINFO or log is inconsistent; -ENOMEM; or the
 * -errno of fstat()/pread() (-EISDIR, -ESPIPE: not a regular file).
 */
int taint_vmcore_read_log(int fd, char **buf, size_t *len, char *why,
			  size_t why_size);

/**
 * enum taint_vmcore_fault - why taint_vmcore_read_status() could not read a
 * dump (it may gain values: treat an unknown one as UNREADABLE).
 * @TAINT_VMCORE_OK:          read (or a system error: see the return)
 * @TAINT_VMCORE_UNREADABLE:  not a dump, truncated, a page filtered out,
 *                            data that is not where the kernel's symbols
 *                            and types say (a structure that is not one)
 * @TAINT_VMCORE_NO_KALLSYMS: VMCOREINFO has no SYMBOL(kallsyms_*) keys (a
 *                            kernel before 6.0, or without CONFIG_KALLSYMS)
 * @TAINT_VMCORE_NO_BTF:      the symbol table has no __start_BTF and
 *                            __stop_BTF (no CONFIG_DEBUG_INFO_BTF)
 * @TAINT_VMCORE_BAD_BTF:     the kernel's BTF does not parse, or lacks a
 *                            type or member the reader needs
 * @TAINT_VMCORE_NO_SYMBOL:   a symbol the reader needs (tainted_mask) is
 *                            not in the symbol table (no CONFIG_KALLSYMS_ALL)
 */
enum taint_vmcore_fault {
	TAINT_VMCORE_OK = 0,
	TAINT_VMCORE_UNREADABLE = 1,
	TAINT_VMCORE_NO_KALLSYMS = 2,
	TAINT_VMCORE_NO_BTF = 3,
	TAINT_VMCORE_BAD_BTF = 4,
	TAINT_VMCORE_NO_SYMBOL = 5,
};

/**
 * taint_vmcore_read_status() - the taint of the kernel a crash dump was
 * taken of, patched or not: what its /proc/sys/kernel/tainted and
 * /sys/module/NAME/taint showed, as taint_read_mask() and
 * taint_read_modules() give them for the running kernel.
 * @fd:    the dump, in any format taint_vmcore_read_log() reads
 * @mask:  tainted_mask
 * @mods, @count: the loaded modules whose taints are not 0, sorted by name,
 *         in a malloc()ed array (the caller frees it; NULL when *@count is
 *         0); @taint the kernel's letters for them (module_flags_taint():
 *         each set bit's letter in bit order, '?' for a bit this library
 *         has no letter for)
 * @fault: an enum taint_vmcore_fault: which of the bad dumps it is, for
 *         -EBADMSG, -ENOTSUP and -ENOENT; else TAINT_VMCORE_OK
 * @why:   for those, one line of English naming what is missing or wrong
 *         (@why_size bytes, may be 0); else ""
 * Needs no VMCOREINFO line of the series and no debug information: the
 * dump's VMCOREINFO gives the kernel's symbol table (SYMBOL(kallsyms_*),
 * Linux 6.0 and later; its 6.1, 6.12 and 7.x forms), which gives
 * tainted_mask, the module list `modules` and the kernel's BTF
 * (__start_BTF, __stop_BTF; parsed by libbpf), which lays out struct
 * module; module memory is read through the kernel's page tables
 * (SYMBOL(init_top_pgt), NUMBER(pgtable_l5_enabled)).  A kernel without a
 * `modules` symbol (CONFIG_MODULES=n) has no modules: its BTF is not read.
 * Returns 0; -EBADMSG, -ENOTSUP, -ENOENT (*@fault and @why say why); -ENOMEM;
 * or the -errno of fstat()/pread().
 */
int taint_vmcore_read_status(int fd, uint64_t *mask, struct taint_module **mods,
			     size_t *count, int *fault, char *why,
			     size_t why_size);

/* ------------------------------------------------------------------------
 * The taint log as an object (log_object.c), in the manner of libkmod's:
 * struct taint_log is opaque, made by one of the taint_log_new_*()
 * functions, which read and parse a whole log once; accessors answer from
 * what was read; the last taint_log_unref() frees it.  A log never
 * changes once made.  Where a function takes a const struct taint_log *,
 * NULL is a log without events (a kernel that keeps none): no event, no
 * problem, dropped 0.
 */

struct taint_log;

/**
 * taint_log_new_from_proc() - read and parse <root>/sys/kernel/taint_log
 * (taint_read_log()): @proc_root NULL for the running system's /proc, or
 * a copied tree's ("DIR/proc" of a sosreport, whose log is read from its
 * sysctl_-a: problems carry that file's line numbers).  Malformed lines do not
 * fail it: they are counted (taint_log_get_malformed()) and described
 * (taint_log_get_problem()).  Returns 0 and *@log (a new reference),
 * -ENOENT: the kernel keeps no taint log (a stock kernel), -ENAMETOOLONG,
 * -EFBIG (over 4 MiB), -ENOMEM, or the -errno of open()/read(); *@log is
 * NULL on an error.
 */
int taint_log_new_from_proc(const char *proc_root, struct taint_log **log);

/**
 * taint_log_new_from_file() - the same for a copy of a taint_log's text
 * in the file @path (any file read() can read to its end: a FIFO, a
 * terminal too; not decompressed), at most 4 MiB.  Returns 0 and *@log,
 * -EFBIG, -ENOMEM or the -errno of open()/read().
 */
int taint_log_new_from_file(const char *path, struct taint_log **log);

/**
 * taint_log_new_from_text() - the same for the @len bytes of taint_log
 * text at @buf (not kept: @buf may be freed after the call).  Returns 0
 * and *@log, or -ENOMEM.
 */
int taint_log_new_from_text(const char *buf, size_t len,
			    struct taint_log **log);

/**
 * taint_log_new_from_fd() - the same for a copy of a taint_log's text read
 * from @fd to its end (a file, a pipe: a saved log, standard input),
 * decompressed if it is compressed data libtaint reads (told by its magic
 * bytes, as taint_scan_fd_opts() does: taint_compression_info()'s
 * readable formats), at most 4 MiB of text.  @fd is not closed.
 * @why: for -EBADMSG (corrupt or truncated compressed data) and -ENOTSUP
 * (a format this build cannot read), a description (@why_size bytes, may
 * be 0); else "".  Returns 0 and *@log, -EFBIG, -ENOMEM, -EBADMSG,
 * -ENOTSUP or the -errno of read().
 */
int taint_log_new_from_fd(int fd, struct taint_log **log, char *why,
			  size_t why_size);

/**
 * taint_log_new_from_vmcore() - the same for the taint log of the crash
 * dump open at @fd (taint_vmcore_read_log(), whose rules and return
 * values apply: @why says what is wrong with a dump that cannot be read).
 * Returns 0 and *@log, or the error of taint_vmcore_read_log().
 */
int taint_log_new_from_vmcore(int fd, struct taint_log **log, char *why,
			      size_t why_size);

/** taint_log_ref() - one more reference to @log (NULL is fine); @log. */
struct taint_log *taint_log_ref(struct taint_log *log);

/**
 * taint_log_unref() - drop a reference to @log (NULL is fine), which is
 * freed with its last reference; NULL then, else @log.  What the
 * accessors returned is valid as long as a reference is held.
 */
struct taint_log *taint_log_unref(struct taint_log *log);

/** taint_log_get_event_count() - the number of well-formed event lines. */
size_t taint_log_get_event_count(const struct taint_log *log);

/**
 * taint_log_get_event() - event @i (0: the oldest, the log's order), or
 * NULL if @i is not below taint_log_get_event_count().  The event is the
 * library's: read it through the pointer (its .size is the library's; see
 * the ABI rules for a copy).
 */
const struct taint_event *taint_log_get_event(const struct taint_log *log,
					      size_t i);

/** taint_log_get_dropped() - the dropped= count (0 without the line). */
uint64_t taint_log_get_dropped(const struct taint_log *log);

/**
 * taint_log_get_malformed() - the number of malformed lines, which were
 * skipped (a "dropped=" line that is not the last one is one of them).
 */
unsigned int taint_log_get_malformed(const struct taint_log *log);

/**
 * taint_log_get_problem() - problem @i of the log, in the order of its
 * lines: what taint_log_parse() reports to its problem callback, a
 * malformed line (*@fatal true: skipped) or an event with unknown fields
 * (*@fatal false: kept).  Returns its description (English, one line),
 * its line number in *@lineno and *@fatal (each may be NULL), or NULL
 * when there are no more.  (Should memory run out while a log is read,
 * a problem may be left out; taint_log_get_malformed() still counts it.)
 */
const char *taint_log_get_problem(const struct taint_log *log, size_t i,
				  unsigned int *lineno, bool *fatal);

/**
 * taint_log_first_event() - taint_first_event() on the events of @log:
 * the index of the event that set flag @bit first, or -1.
 */
long taint_log_first_event(const struct taint_log *log, unsigned int bit);

/**
 * taint_log_cursor() - the cursor of @log read now, with the boot id
 * @boot_id (taint_read_boot_id()) and the taint mask @mask, read after
 * the log (so that a flag set meanwhile is in @mask or named by a later
 * event): its event count, dropped count and digest into *@c (@c->size
 * set by the caller, a result as of taint_cursor_parse()).  Returns 0, or
 * -EINVAL for a @boot_id longer than TAINT_BOOT_ID_LEN or a @c->size
 * smaller than the 1.0 layout.  taint_cursor_format() checks the boot id.
 */
int taint_log_cursor(const struct taint_log *log, const char *boot_id,
		     uint64_t mask, struct taint_cursor *c);

/**
 * struct taint_window - what taint_log_since() found after a cursor.
 * @size:          sizeof(struct taint_window), set by the caller (ABI
 *                 rules)
 * @set:           the flags set in the window: @new_bits, and the flags=
 *                 and new= of every event after the cursor (a user request
 *                 for U after the cursor counts, even if U was set before)
 * @new_bits:      the taint mask now without the cursor's
 * @without_event: the bits of @new_bits that no event names (a stock
 *                 kernel, or an event not published yet)
 * @dropped:       user requests counted but not kept (log full) since the
 *                 cursor: their flags are not known
 */
struct taint_window {
	size_t size;
	uint64_t set;
	uint64_t new_bits;
	uint64_t without_event;
	uint64_t dropped;
};

/**
 * taint_log_since() - judge the window after @cursor (taint_cursor_parse())
 * of @log read now, with the boot id @boot_id and the mask @mask, read as
 * for taint_log_cursor().  The events of the window are those after the
 * cursor and, for a new bit that none of them sets, the first event that
 * set it if it is before the cursor (published late, while the cursor was
 * taken).  Fills *@window; if @events is not NULL, *@events is a new log
 * of those events, in the log's order, with the window's dropped count (no
 * problems).  Returns 0; -ESTALE: the cursor is from another boot (its
 * taint state is gone); -EBADMSG: the cursor does not fit @log and @mask
 * (the log has fewer events than the cursor counted, or other events at
 * its start, a smaller dropped count, or a bit of the cursor's mask is
 * clear now); for both, *@why is a static English description; -ENOMEM;
 * -EINVAL/-E2BIG for a .size of @cursor (options, as for
 * taint_cursor_format()) or @window that breaks the ABI rules (*@why NULL).
 */
int taint_log_since(const struct taint_log *log,
		    const struct taint_cursor *cursor, const char *boot_id,
		    uint64_t mask, struct taint_window *window,
		    struct taint_log **events, const char **why);


/* ------------------------------------------------------------------------
 * The recorder's log (record.c): `taintctl record`, a BPF program on a
 * stock kernel's taint entry points, writes the kernel's taint log lines
 * to TAINT_RECORD_LOG, with notes of its own ("# taintctl-record ...":
 * when recording began, on which kernel, the mask then; events lost;
 * restarts).  Where the kernel keeps no log, taint_read_log() and
 * taint_log_new_from_proc() read this file instead (taint_record_log_path());
 * taint_log_parse() skips the notes, taint_log_get_recording() reads them.
 */

/* The recorder's log on the running system (under TAINT_LIVE_ROOT). */
#define TAINT_RECORD_LOG "/run/taintctl/taint_log"

/**
 * struct taint_recording - what a recorder's notes say.
 * @size:        sizeof(struct taint_recording), set by the caller (ABI
 *               rules)
 * @began_ts, @began_utc: when recording began (the first "began" note):
 *               the event lines' clocks, utc "-" when the clock was unset
 * @kernel:      the kernel release recorded, unescaped ("" if unknown)
 * @before_mask: the taint mask when recording began: its flags were set
 *               before, by whom is not known
 * @lost:        events lost (the ring buffer was full)
 * @restarts:    times the recorder restarted: each a gap, in which events
 *               may be missing
 */
struct taint_recording {
	size_t size;
	char began_ts[32];
	char began_utc[24];
	char kernel[65];
	uint64_t before_mask;
	uint64_t lost;
	unsigned int restarts;
};

/**
 * taint_record_log_path() - the recorder's log for @proc_root into @buf:
 * TAINT_RECORD_LOG for the running system (NULL), "<DIR>/run/taintctl/
 * taint_log" for a @proc_root "<DIR>/proc"; -ENOENT for a @proc_root not
 * named proc (no tree around it), -ENAMETOOLONG.
 */
int taint_record_log_path(const char *proc_root, char *buf, size_t size);

/**
 * taint_record_format_event() - @ev as a taint_log line (the kernel's
 * format and escaping, no newline) into @buf, NUL-terminated; returns the
 * length the whole line needs (like snprintf).
 */
size_t taint_record_format_event(const struct taint_event *ev, char *buf,
				 size_t size);

/**
 * taint_record_format_begin() - the recorder's first note ("began"), or,
 * with @restarted, the note of a recorder that appends to an earlier
 * one's log (a gap): @ts and @utc as in an event line (utc "" or "-":
 * unset), @kernel the release (escaped here), @mask the taint mask then.
 * Like snprintf; no newline.
 */
size_t taint_record_format_begin(char *buf, size_t size, bool restarted,
				 const char *ts, const char *utc,
				 const char *kernel, uint64_t mask);

/**
 * taint_record_format_lost() - the note of @lost more events lost at @ts.
 * Like snprintf; no newline.
 */
size_t taint_record_format_lost(char *buf, size_t size, const char *ts,
				uint64_t lost);

/**
 * taint_record_parse_note() - add the note @line (@len bytes, no newline)
 * to *@r (zeroed, with @r->size set, before the first line): 1 if it was
 * a note, 0 if the line is not one (an event line), -EINVAL for a note
 * that does not parse (*@r unchanged) or a bad @r->size.
 */
int taint_record_parse_note(const char *line, size_t len,
			    struct taint_recording *r);

/**
 * taint_log_get_recording() - the notes of @log into *@r (@r->size set by
 * the caller): 0 if @log is a recorder's (it has a "began" note), -ENOENT
 * if not (the kernel's own log), -EINVAL for a bad @r->size.
 */
int taint_log_get_recording(const struct taint_log *log,
			    struct taint_recording *r);

#ifdef __cplusplus
}
#endif

#endif /* TAINT_H */
