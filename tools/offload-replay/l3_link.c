/*
 * l3_link.c - see l3_link.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _DEFAULT_SOURCE /* the BSD types <pcap/pcap.h> uses */
#include "l3_link.h"

#include <pcap/pcap.h>

static const struct {
	uint32_t linktype;
	uint8_t skip;
} l3_links[] = {
	{ DLT_RAW, 0 },   /* 12 (14 on some BSDs) */
	{ 12, 0 },        /* DLT_RAW of most systems, whatever this one's is */
	{ 14, 0 },        /* DLT_RAW of BSD/OS */
	{ 101, 0 },       /* LINKTYPE_RAW, as a file names it */
	{ 228, 0 },       /* IPV4 */
	{ 229, 0 },       /* IPV6 */
	{ 0, 4 },         /* NULL: family in the writer's byte order */
	{ 108, 4 },       /* LOOP: family in network byte order */
	{ 113, 16 },      /* LINUX_SLL */
	{ 276, 20 },      /* LINUX_SLL2 */
};

int l3_link_skip(uint32_t linktype)
{
	for (unsigned i = 0; i < sizeof l3_links / sizeof l3_links[0]; i++)
		if (l3_links[i].linktype == linktype)
			return l3_links[i].skip;
	return -1;
}

uint32_t l3_link_out_linktype(void)
{
	return DLT_RAW;
}

void l3_link_strip(struct replay_capture *c, unsigned skip)
{
	for (size_t i = 0; i < c->nframes; i++) {
		struct replay_frame *f = &c->frames[i];
		unsigned s = f->caplen < skip ? f->caplen : skip;
		f->data += s;
		f->caplen -= s;
		f->len = f->len > skip ? f->len - skip : 0;
	}
	c->linktype = l3_link_out_linktype();
}
