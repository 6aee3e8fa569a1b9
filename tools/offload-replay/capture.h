/*
 * capture.h - capture files for offload-replay and its tests, through
 * libpcap: load a whole capture into memory (a frame table), and write
 * frames to a classic pcap file.
 *
 * Reading: pcap_open_offline_with_tstamp_precision() with nanosecond
 * precision, so every format and link type libpcap reads is read, and
 * nothing of a time stamp is lost.  "-" is the standard input.  Records
 * longer than the file's snap length are read as libpcap (and tcpdump)
 * returns them: cut to the snap length (counted as truncated, caplen < len);
 * replay_capture_read_lax() reads them whole.
 * Link types are libpcap's DLT_ values (pcap_datalink()); which ones a
 * command handles is its own business (dsa_opt_resolve()), named by
 * replay_linktype_describe().
 *
 * Writing: pcap_dump() of classic pcap (libpcap 1.10 writes no pcapng),
 * microsecond or nanosecond resolution.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_CAPTURE_H
#define OFL_REPLAY_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REPLAY_ERRLEN 256u
/** DLT_EN10MB: Ethernet, the link type every command takes */
#define REPLAY_LINKTYPE_ETHERNET 1u

enum replay_format {
	REPLAY_FMT_PCAP = 1,   /**< classic libpcap format */
	REPLAY_FMT_PCAPNG = 2, /**< pcap next generation */
};

/** One captured frame; data points into the capture's bytes. */
struct replay_frame {
	const uint8_t *data;
	uint32_t caplen;   /**< bytes present (what is fed to the engine) */
	uint32_t len;      /**< length on the wire */
	uint64_t ts_ns;    /**< nanoseconds since the epoch */
};

/** A capture loaded into memory (owns its bytes). */
struct replay_capture {
	uint8_t *bytes;              /**< every frame's bytes, one after the other */
	size_t nbytes;
	struct replay_frame *frames; /**< nframes, in file order */
	size_t nframes;
	enum replay_format format;
	uint32_t linktype;           /**< DLT_ value (libpcap: one per file) */
	uint32_t snaplen;
	int nano;                    /**< some time stamp is not a whole microsecond */
	uint64_t truncated;          /**< frames with caplen < len */
};

/**
 * Read the capture file at path ("-": standard input) through libpcap.
 * Returns 0, or -1 with a message naming the file in err; a pcapng file
 * whose interfaces differ in link type or snap length (which libpcap 1.10
 * refuses) gets a message saying so.
 */
int replay_capture_read(struct replay_capture *c, const char *path, char *err, size_t errlen);

/**
 * The same for a capture held in memory (copied: data need not outlive c).
 * Returns 0, or -1 with a message in err.
 */
int replay_capture_parse(struct replay_capture *c, const void *data, size_t len, char *err,
                         size_t errlen);

/**
 * Like replay_capture_read(), but records longer than a classic pcap file's
 * snap length (a wrong header field some writers leave) are read whole, up
 * to libpcap's limit of 262144 bytes: the file is read into memory and the
 * header's snap length raised before libpcap sees it.  c->snaplen stays the
 * file's.  pcapng files are read as replay_capture_read() reads them.
 */
int replay_capture_read_lax(struct replay_capture *c, const char *path, char *err, size_t errlen);

void replay_capture_free(struct replay_capture *c);

/**
 * "12 (RAW, Raw IP)": a link type with libpcap's name and description, into
 * buf (always terminated).  Returns buf.
 */
const char *replay_linktype_describe(uint32_t linktype, char *buf, size_t n);

/**
 * A classic pcap file being written through pcap_dump().  A reserved frame
 * is written when the next one is reserved, or at the close.
 */
struct replay_outfile {
	void *pcap;                /**< pcap_t of pcap_open_dead(); NULL: no file */
	void *dumper;              /**< pcap_dumper_t */
	uint8_t *buf;              /**< the reserved frame */
	size_t bufcap;
	int pending;               /**< buf holds a frame not written yet */
	uint64_t ts_ns;            /**< the pending frame's header */
	uint32_t caplen, len;
	int nano;
	const char *path;
	int failed;
	char err[REPLAY_ERRLEN];   /**< what failed, naming the file */
};

/**
 * Create path ("-": standard output; NULL: a sink that writes nothing) with
 * a pcap header of that link type, snap length and resolution (nano: ns).
 * Returns 0, or -1 with a message in o->err.
 */
int replay_outfile_open(struct replay_outfile *o, const char *path, uint32_t linktype,
                        uint32_t snaplen, int nano);

/**
 * The same on a stream the caller opened (e.g. open_memstream()); name is
 * for messages.  replay_outfile_close() closes fp.
 */
int replay_outfile_open_fp(struct replay_outfile *o, FILE *fp, const char *name, uint32_t linktype,
                           uint32_t snaplen, int nano);

/**
 * Room for one frame of caplen bytes (len on the wire) stamped ts_ns; the
 * caller fills it before the next call.  NULL when there is no file, or
 * after a failure (o->failed, o->err).
 */
uint8_t *replay_outfile_reserve(struct replay_outfile *o, uint64_t ts_ns, uint32_t caplen,
                                uint32_t len);

/** Reserve and copy: 0, or -1 (o->err). */
int replay_outfile_write(struct replay_outfile *o, uint64_t ts_ns, const void *data, uint32_t caplen,
                         uint32_t len);

/** Record a failure of the caller's (e.g. filling a reserved frame). */
void replay_outfile_fail(struct replay_outfile *o, const char *msg);

/** Write what is left and close.  Returns 0, or -1 with a message in o->err
 *  (also for a failure recorded before). */
int replay_outfile_close(struct replay_outfile *o);

#endif /* OFL_REPLAY_CAPTURE_H */
