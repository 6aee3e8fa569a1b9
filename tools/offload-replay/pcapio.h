/*
 * pcapio.h - a small reader and writer of packet captures that works on
 * memory buffers (so a fuzzer or a test can feed it bytes directly; reading
 * a file is a thin shell around it, see replay_read_file()).
 *
 * Reader: classic pcap (both byte orders, microsecond and nanosecond magic)
 * and pcapng (SHB, IDB, EPB, SPB and the obsolete PB; both byte orders, any
 * number of sections; other block types are skipped).  Every header field is
 * bounds-checked; an error names the frame number and the byte offset.
 * Writer: classic pcap or pcapng (one SHB, one IDB, EPBs), either byte
 * order, microsecond or nanosecond timestamps, into a growing buffer.
 *
 * No global state: everything lives in the reader or writer struct.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_PCAPIO_H
#define OFL_REPLAY_PCAPIO_H

#include <stddef.h>
#include <stdint.h>

#define PCAPIO_LINKTYPE_ETHERNET 1u
/** linktype of a pcapng reader before its first interface block */
#define PCAPIO_LINKTYPE_UNKNOWN 0xFFFFFFFFu
/** Interfaces per pcapng section the reader keeps. */
#define PCAPIO_MAX_IFACES 256u
#define PCAPIO_ERRLEN 160u

enum pcapio_format {
	PCAPIO_FMT_PCAP = 1,   /**< classic libpcap format */
	PCAPIO_FMT_PCAPNG = 2, /**< pcap next generation */
};

/** Results of the reader and writer calls. */
enum pcapio_status {
	PCAPIO_OK = 0,        /**< header read, frame returned or written */
	PCAPIO_END = 1,       /**< pcapio_next(): no more frames */
	PCAPIO_EMAGIC = -1,   /**< not a pcap or pcapng file */
	PCAPIO_ETRUNC = -2,   /**< the data ends inside a header or a frame */
	PCAPIO_EFORMAT = -3,  /**< a header field is out of range or inconsistent */
	PCAPIO_ENOMEM = -4,   /**< writer: the buffer could not grow */
	PCAPIO_EINVAL = -5,   /**< bad argument */
};

/** One pcapng interface (IDB) of the current section. */
struct pcapio_iface {
	uint32_t linktype;
	uint32_t snaplen;     /**< 0 = no limit */
	uint8_t tsresol;      /**< if_tsresol: 10^-n, or 2^-(n & 0x7f) with bit 7 set */
	int64_t tsoffset_s;   /**< if_tsoffset, seconds */
};

struct pcapio_reader {
	const uint8_t *data;
	size_t len;
	size_t off;                 /**< next byte to read */
	enum pcapio_format format;
	int big_endian;             /**< byte order of the file (pcapng: current section) */
	int nano;                   /**< nanosecond (or finer) timestamps */
	uint32_t linktype;          /**< classic: from the header; pcapng: first interface's */
	uint32_t snaplen;           /**< classic: from the header; pcapng: first interface's */
	uint64_t frames;            /**< frames returned so far (frame numbers start at 1) */
	uint64_t last_ts_ns;        /**< time stamp of the last frame (pcapng SPBs have none) */
	int status;                 /**< sticky: once an error, every call returns it */
	unsigned flags;             /**< PCAPIO_F_* given to pcapio_open() */
	uint64_t over_snaplen;      /**< frames accepted with caplen > snaplen (PCAPIO_F_LAX_SNAPLEN) */
	uint32_t nifaces;           /**< pcapng: interfaces of the current section */
	struct pcapio_iface ifaces[PCAPIO_MAX_IFACES];
	char err[PCAPIO_ERRLEN];    /**< message of the last error ("" if none) */
};

/** One frame; data points into the reader's buffer. */
struct pcapio_frame {
	const uint8_t *data;
	uint32_t caplen;    /**< bytes present */
	uint32_t len;       /**< length on the wire (caplen < len: cut by the snap length) */
	uint64_t ts_ns;     /**< time stamp, nanoseconds since the epoch */
	uint32_t linktype;  /**< the frame's interface's link type */
	uint32_t iface;     /**< pcapng interface index (0 for classic pcap) */
};

/**
 * pcapio_open() flag: accept frames whose caplen exceeds the snap length of
 * the file header or interface (some writers put a wrong snaplen there;
 * libpcap reads such frames cut to the snaplen).  They are returned whole
 * and counted in over_snaplen.  Without it they are an error.
 */
#define PCAPIO_F_LAX_SNAPLEN 0x1u

/**
 * Start reading a capture held in memory (not copied; must outlive the
 * reader).  Reads the file header (pcapng: the SHB and the interface blocks
 * that follow it).  flags: PCAPIO_F_*.  Returns PCAPIO_OK or a negative
 * status with r->err set.
 */
int pcapio_open(struct pcapio_reader *r, const void *data, size_t len, unsigned flags);

/**
 * Next frame.  Returns PCAPIO_OK (*f filled), PCAPIO_END, or a negative
 * status with r->err naming the frame number and offset.
 */
int pcapio_next(struct pcapio_reader *r, struct pcapio_frame *f);

/** Human-readable name of a status. */
const char *pcapio_strerror(int status);

/** Writer into a growing buffer; drain buf[0..len) and set len to 0 at will. */
struct pcapio_writer {
	uint8_t *buf;
	size_t len;
	size_t cap;
	enum pcapio_format format;
	int big_endian;
	int nano;
	uint32_t linktype;
	uint32_t snaplen;
	uint64_t frames;    /**< frames written */
};

/** Set up a writer and write the file header (pcapng: SHB and one IDB). */
int pcapio_writer_init(struct pcapio_writer *w, enum pcapio_format format, uint32_t linktype,
                       uint32_t snaplen, int nano, int big_endian);

/**
 * Append a frame record for caplen bytes and return where the caller must
 * put them (NULL when the buffer cannot grow, or caplen > len).  The pointer
 * is valid until the next call on the writer.
 */
uint8_t *pcapio_write_reserve(struct pcapio_writer *w, uint64_t ts_ns, uint32_t caplen,
                              uint32_t len);

/** Append a frame (reserve and copy). */
int pcapio_write(struct pcapio_writer *w, uint64_t ts_ns, const void *data, uint32_t caplen,
                 uint32_t len);

/** Free the buffer. */
void pcapio_writer_free(struct pcapio_writer *w);

#endif /* OFL_REPLAY_PCAPIO_H */
