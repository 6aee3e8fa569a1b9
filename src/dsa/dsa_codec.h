/*
 * dsa_codec.h - the macros that make a format's codec (DSA_CODEC,
 * DSA_CODEC_P, DSA_CODEC_D, DSA_CODEC_WITH...): from one decode body and
 * one encoder, every entry of struct ofl_dsa_codec (single-buffer decode
 * per direction, the prepared cut and brief entries, multi-buffer decode,
 * encode).  Included by dsa_int.h, where it stood, after the helpers the
 * entries use.
 */
#ifndef OFL_SRC_DSA_CODEC_H
#define OFL_SRC_DSA_CODEC_H

/* Defines dsa_codec_<name>: dec_call is a decode expression over (ops, p,
 * dir, f, m, v), enc the encoder.  The single-buffer entries (one per
 * direction, dir a constant) describe the frame as one window on their
 * stack, so once dec_call is inlined the window checks fold to length
 * checks and the description never reaches memory.  With fold_p (a body
 * that reads params) the body is compiled a second time for params NULL,
 * over a local all-zero params whose fields fold to constants (the sja1105
 * TPID test, the brcm-legacy and edsa options): the common call with NULL
 * pays no loads or tests of params.  Without it, NULL stands for
 * dsa_default_params. */
/* The frame of a single-buffer entry is never NULL (ofl_dsa_decode()
 * refuses it, the prepared entries' callers must not pass it): said to the
 * compiler, it drops the NULL test of a tail tag's address (frame + len -
 * n), which the window check cannot rule out by itself. */
#if defined(__GNUC__) || defined(__clang__)
#define DSA_ASSUME_NONNULL(ptr)                                                \
	do {                                                                   \
		if (!(ptr))                                                    \
			__builtin_unreachable();                               \
	} while (0)
#else
#define DSA_ASSUME_NONNULL(ptr) ((void)0)
#endif

/* The locals of a single-buffer entry: the frame (frame, len) as one
 * window f, the constant direction dir, an all-zero params. */
#define DSA_ONE_FRAME_(dirval, is_prepared)                                    \
	static const struct ofl_dsa_params zero_params;                        \
	const struct dsa_frame one = { frame, frame, len, len, len, 0, NULL, 0, \
	                               is_prepared };                          \
	DSA_ASSUME_NONNULL(frame);                                             \
	const struct dsa_frame *f = &one;                                      \
	const int dir = dirval

#define DSA_CODEC_ONE_(name, dirname, dirval, dec_call, fold_p)                \
	static int codec_##name##_##dirname(const struct ofl_dsa_ops *ops,     \
	                                    const struct ofl_dsa_params *p,     \
	                                    int dir_in, const uint8_t *frame,   \
	                                    uint32_t len,                       \
	                                    struct ofl_dsa_meta *m,             \
	                                    struct ofl_dsa_view *v)             \
	{                                                                      \
		DSA_ONE_FRAME_(dirval, 0);                                     \
		int err;                                                       \
                                                                               \
		(void)ops;                                                     \
		(void)dir_in;                                                  \
		*m = (struct ofl_dsa_meta){ 0 };                               \
		if (p || !(fold_p)) {                                          \
			if (!p)                                                \
				p = &dsa_default_params;                       \
			err = dec_call;                                        \
		} else {                                                       \
			p = &zero_params;                                      \
			err = dec_call;                                        \
		}                                                              \
		return err ? dsa_decode_fail(err, m, v) : 0;                   \
	}

/* The cut of a view a decode body wrote (the view itself, a local of the
 * entry, is never stored: only what the cut needs is computed). */
static inline void dsa_cut_of_view(struct ofl_dsa_cut *c,
                                   const struct ofl_dsa_view *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the first 8 bytes as one word: where decode paths with different
	 * constants meet, one store of a word built from the one or two
	 * values that differ, not five stores */
	uint64_t w = (uint64_t)(uint16_t)v->mac_off |
	             (uint64_t)(uint16_t)v->rest_off << 16 |
	             (uint64_t)v->tail_len << 32 | (uint64_t)v->ins_len << 48 |
	             (uint64_t)v->mac_patched << 56;

	memcpy(c, &w, sizeof(w));
#else
	c->mac_off = (uint16_t)v->mac_off;
	c->rest_off = (uint16_t)v->rest_off;
	c->tail_len = v->tail_len;
	c->ins_len = v->ins_len;
	c->mac_patched = v->mac_patched;
#endif
	if (v->ins_len)
		memcpy(c->ins, v->buf + DSA_MACS_LEN, sizeof(c->ins));
}

/* The prepared entry of a codec for one direction (ofl_dsa_decode_cut):
 * the body writes meta (zeroed first, as ofl_dsa_decode does) and a view on
 * the entry's own stack, which never escapes, so only what the cut needs of
 * it is computed.  pexpr is the params the body sees.  (Decoding meta into
 * a local too and copying it out whole cost more: 69 instead of 39 for
 * dsa, the fields are stored one by one either way.) */
/* The locals of a prepared entry (cut or brief) around DSA_ONE_FRAME_:
 * ops, the params p the body sees (pexpr), the view local vv and v. */
#define DSA_PREPARED_FRAME_(dirval, pexpr)                                     \
	DSA_ONE_FRAME_(dirval, 1);                                             \
	const struct ofl_dsa_ops *ops = d->ops;                                \
	const struct ofl_dsa_params *p = pexpr;                                \
	struct ofl_dsa_view vv = { 0 };                                        \
	struct ofl_dsa_view *v = &vv;                                          \
	int err;                                                               \
	(void)zero_params;                                                     \
	(void)ops;                                                             \
	(void)p

#define DSA_CODEC_CUT_(name, suffix, dirval, dec_call, pexpr)                  \
	static int codec_##name##_##suffix(const struct ofl_dsa_decoder *d,    \
	                                   const uint8_t *frame, uint32_t len,  \
	                                   struct ofl_dsa_meta *meta,           \
	                                   struct ofl_dsa_cut *cut)             \
	{                                                                      \
		DSA_PREPARED_FRAME_(dirval, pexpr);                            \
		struct ofl_dsa_meta *m = meta;                                 \
                                                                               \
		*meta = (struct ofl_dsa_meta){ 0 };                            \
		err = dec_call;                                                \
		if (err == DSA_RARE)                                           \
			return dsa_cut_rare(d, frame, len, meta, cut);         \
		if (err) {                                                     \
			*meta = (struct ofl_dsa_meta){ 0 };                    \
			return err;                                            \
		}                                                              \
		dsa_cut_of_view(cut, &vv);                                     \
		return 0;                                                      \
	}

/* The fields of a brief after its cut: flags, valid and switch_id as one
 * 4-byte word (one store; a constant one for most formats), port on its
 * own (one 8-byte word with port in it cost 5-7 more where the fields
 * vary, dsa and edsa; four stores cost 1-3 more almost everywhere). */
static inline void dsa_brief_put(struct ofl_dsa_brief *o,
                                 const struct ofl_dsa_meta *m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t w = (uint32_t)(uint16_t)m->flags |
	             (uint32_t)(m->valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH)) << 16 |
	             (uint32_t)m->switch_id << 24;

	memcpy(&o->flags, &w, sizeof(w));
#else
	o->flags = (uint16_t)m->flags;
	o->valid = (uint8_t)(m->valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH));
	o->switch_id = m->switch_id;
#endif
	o->port = m->port;
}

/* The cut and the brief of a frame a body answered DSA_RARE for: through
 * the format's single-buffer entry (ofl_dsa_decode's), out of line. */
int dsa_cut_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                 uint32_t len, struct ofl_dsa_meta *meta,
                 struct ofl_dsa_cut *cut);
int dsa_brief_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                   uint32_t len, struct ofl_dsa_brief *out);

/* The brief entry of a codec for one direction (ofl_dsa_decode_brief):
 * the same body with meta and view both locals of the entry that never
 * escape, so the compiler computes only what is copied out (port, switch,
 * flags and the cut): the extraction of the other fields is dead code. */
#define DSA_CODEC_BRIEF_(name, suffix, dirval, dec_call, pexpr)                \
	static int codec_##name##_##suffix(const struct ofl_dsa_decoder *d,    \
	                                   const uint8_t *frame, uint32_t len,  \
	                                   struct ofl_dsa_brief *out)           \
	{                                                                      \
		DSA_PREPARED_FRAME_(dirval, pexpr);                            \
		struct ofl_dsa_meta mm = { 0 };                                \
		struct ofl_dsa_meta *m = &mm;                                  \
                                                                               \
		err = dec_call;                                                \
		if (err == DSA_RARE)                                           \
			return dsa_brief_rare(d, frame, len, out);             \
		if (err)                                                       \
			return err;                                            \
		dsa_cut_of_view(&out->cut, &vv);                               \
		dsa_brief_put(out, &mm);                                       \
		return 0;                                                      \
	}

/* A refused frame's brief in a burst: zero but reserved[] (its cut's
 * rest_off 0 says it was refused). */
static inline void dsa_brief_refused(struct ofl_dsa_brief *o)
{
	memset(o, 0, offsetof(struct ofl_dsa_brief, reserved));
}

#if defined(__clang__)
#define DSA_UNROLL_ _Pragma("unroll 4")
#elif defined(__GNUC__)
#define DSA_UNROLL_ _Pragma("GCC unroll 4")
#else
#define DSA_UNROLL_
#endif

/* The burst entry of a codec for one direction (ofl_dsa_decode_brief_
 * burst): the brief entry's body in a loop, so that the entry jump, the
 * return and the constants of the stores are paid once per batch. */
#define DSA_CODEC_BURST_(name, suffix, dirval, dec_call, pexpr)                \
	static unsigned codec_##name##_##suffix(const struct ofl_dsa_decoder *d, \
	                                        const struct ofl_buf *frames,   \
	                                        unsigned n,                     \
	                                        struct ofl_dsa_brief *out)      \
	{                                                                      \
		const struct ofl_buf *end = frames + n;                        \
		unsigned refused = 0;                                          \
                                                                               \
		DSA_UNROLL_                                                    \
		for (; frames != end; frames++, out++) {                       \
			const uint8_t *frame = frames->data;                   \
			uint32_t len = frames->len;                            \
			DSA_PREPARED_FRAME_(dirval, pexpr);                    \
			struct ofl_dsa_meta mm = { 0 };                        \
			struct ofl_dsa_meta *m = &mm;                          \
                                                                               \
			err = dec_call;                                        \
			if (err == DSA_RARE)                                   \
				err = dsa_brief_rare(d, frame, len, out);      \
			else if (!err) {                                       \
				dsa_cut_of_view(&out->cut, &vv);               \
				dsa_brief_put(out, &mm);                       \
			}                                                      \
			if (err) {                                             \
				dsa_brief_refused(out);                        \
				refused++;                                     \
			}                                                      \
		}                                                              \
		return refused;                                                \
	}

/* The packed word of a decoded frame (include/ofl/dsa.h, OFL_DSA_PK_*):
 * built in a register from the view and meta locals of a body, most of it
 * constant on each path. */
static inline uint64_t dsa_packed_word(const struct ofl_dsa_view *v,
                                       const struct ofl_dsa_meta *m)
{
	return (uint64_t)(uint8_t)v->rest_off |
	       (uint64_t)(uint8_t)v->mac_off << 8 |
	       (uint64_t)v->tail_len << 16 | DSA_PK_FLAGS(m->flags & 0x3FFu) |
	       (uint64_t)(v->ins_len & 7u) << 42 |
	       (uint64_t)(v->mac_patched & 1u) << 45 | DSA_PK_VALID(m->valid) |
	       DSA_PK_SWITCH(m->switch_id) | DSA_PK_PORT(m->port);
}

/* The packed result of a frame a body answered DSA_RARE for (through
 * dsa_brief_rare, out of line); 0 when refused. */
uint64_t dsa_packed_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                         uint32_t len, struct ofl_dsa_packed *out);

/* One frame through a codec's body for the packed burst: the word (0
 * when refused), the rebuilt bytes into out->ins.  Inlined into the loop
 * of a codec without a fast path (kind pk_slow), out of line behind one
 * with it (pk_fast), where it runs only for the frames the fast path
 * leaves.  It takes the frame's ofl_buf, not its address and length:
 * passed as two arguments they had to be in the call's registers, and a
 * tail tagger's fast path, which indexes by the length, paid a copy of it
 * per frame (a register move). */
#define DSA_PK_ONE_pk_slow inline OFL_ALWAYS_INLINE
#if defined(__GNUC__) && !defined(__clang__)
/* GCC's IPA-SRA would otherwise split the ofl_buf back into two register
 * arguments (a .isra clone), and the copy would be back */
#define DSA_PK_ONE_pk_fast OFL_NOINLINE __attribute__((noclone))
#else
#define DSA_PK_ONE_pk_fast OFL_NOINLINE
#endif
#define DSA_CODEC_PACKED_ONE_(name, suffix, dirval, dec_call, pexpr, one_attr) \
	static one_attr uint64_t codec_##name##_##suffix##_one(         \
		const struct ofl_dsa_decoder *d, const struct ofl_buf *fr,     \
		struct ofl_dsa_packed *out)                                    \
	{                                                                      \
		const uint8_t *frame = fr->data;                               \
		uint32_t len = fr->len;                                        \
		DSA_PREPARED_FRAME_(dirval, pexpr);                            \
		struct ofl_dsa_meta mm = { 0 };                                \
		struct ofl_dsa_meta *m = &mm;                                  \
                                                                               \
		err = dec_call;                                                \
		if (DSA_UNLIKELY(err == DSA_RARE))                             \
			return dsa_packed_rare(d, frame, len, out);            \
		if (err)                                                       \
			return 0;                                              \
		if (vv.ins_len)                                                \
			memcpy(out->ins, vv.buf + DSA_MACS_LEN, sizeof(out->ins)); \
		return dsa_packed_word(&vv, &mm);                              \
	}

/* The fast path's word of one frame (fast_call, an expression over dir,
 * p, frame and len; see DSA_CODEC_PACKED_). */
#define DSA_CODEC_PACKED_FAST_(name, suffix, dirval, pexpr, fast_call)        \
	static inline OFL_ALWAYS_INLINE uint64_t codec_##name##_##suffix##_fast( \
		const struct ofl_dsa_decoder *d, const struct ofl_buf *fr)     \
	{                                                                      \
		static const struct ofl_dsa_params zero_params;                \
		const struct ofl_dsa_params *p = pexpr;                        \
		const int dir = dirval;                                        \
		const uint8_t *frame = fr->data;                               \
		uint32_t len = fr->len;                                        \
                                                                               \
		(void)d;                                                       \
		(void)zero_params;                                             \
		(void)p;                                                       \
		(void)dir;                                                     \
		(void)frame;                                                   \
		(void)len;                                                     \
		return fast_call;                                              \
	}

/* The loop of a codec's packed burst (its entry for a codec without a
 * fast path, kind pk_slow, inlined there; behind the entry's loop of fast
 * frames, out of line, for one with it, pk_fast). */
#define DSA_PK_LOOP_pk_slow inline OFL_ALWAYS_INLINE
#define DSA_PK_LOOP_pk_fast OFL_NOINLINE
/* The signature of a packed burst entry (dsa_packed_burst_fn). */
#define DSA_PK_ENTRY_HEAD_(name, suffix)                                       \
	static unsigned codec_##name##_##suffix(const struct ofl_dsa_decoder *d, \
	                                        const struct ofl_buf *frames,   \
	                                        unsigned n,                     \
	                                        struct ofl_dsa_packed *out)

/* The entry of a codec without a fast path: the loop itself. */
#define DSA_PK_ENTRY_pk_slow(name, suffix)                                     \
	DSA_PK_ENTRY_HEAD_(name, suffix)                                       \
	{                                                                      \
		return codec_##name##_##suffix##_loop(d, frames, n, out);      \
	}
/* The entry of a codec with one: the fast path alone over the frames,
 * eight a step, until the first frame it leaves (DSA_PK_SLOW), then the
 * loop from that frame on as a tail call.  Without a call of its own
 * until then, the entry saves and restores few registers or none, and it
 * counts no refusals (only the body refuses). */
#define DSA_PK_STEP_(name, suffix, k)                                          \
	w = codec_##name##_##suffix##_fast(d, fr + (k));                       \
	if (DSA_UNLIKELY(w & DSA_PK_SLOW)) {                                   \
		fr += (k);                                                     \
		o += (k);                                                      \
		goto rest;                                                     \
	}                                                                      \
	o[k].word = w;
#define DSA_PK_ENTRY_pk_fast(name, suffix)                                     \
	DSA_PK_ENTRY_HEAD_(name, suffix)                                       \
	{                                                                      \
		const struct ofl_buf *fr = frames, *end = frames + n;          \
		const struct ofl_buf *end8 = frames + (n & ~7u);               \
		struct ofl_dsa_packed *o = out;                                \
		uint64_t w;                                                    \
                                                                               \
		for (; fr != end8; fr += 8, o += 8) {                          \
			DSA_PK_STEP_(name, suffix, 0)                          \
			DSA_PK_STEP_(name, suffix, 1)                          \
			DSA_PK_STEP_(name, suffix, 2)                          \
			DSA_PK_STEP_(name, suffix, 3)                          \
			DSA_PK_STEP_(name, suffix, 4)                          \
			DSA_PK_STEP_(name, suffix, 5)                          \
			DSA_PK_STEP_(name, suffix, 6)                          \
			DSA_PK_STEP_(name, suffix, 7)                          \
		}                                                              \
		for (; fr != end; fr++, o++) {                                 \
			DSA_PK_STEP_(name, suffix, 0)                          \
		}                                                              \
		return 0;                                                      \
	rest:                                                                  \
		return codec_##name##_##suffix##_loop(d, fr,                   \
		                                      (unsigned)(end - fr), o); \
	}

/* The packed burst entry of a codec for one direction (ofl_dsa_decode_
 * packed_burst): each frame's result one word built in a register and
 * stored once.  fast_call, an expression over (dir, p, frame, len), is
 * the codec's table-driven decode of its common frame: the body's word
 * for the frame, or a word with DSA_PK_SLOW set for a frame it leaves to
 * the body (kind pk_fast; the constant DSA_PK_SLOW and pk_slow for a
 * codec without a fast path).  Unrolled by hand, four frames a step at
 * fixed offsets from one index: the fast path of a frame is then its
 * loads, the table reads and one store, with no per-frame pointer
 * steps. */
#define DSA_CODEC_PACKED_(name, suffix, dirval, dec_call, pexpr, fast_call,   \
                          kind)                                               \
	DSA_CODEC_PACKED_ONE_(name, suffix, dirval, dec_call, pexpr,           \
	                      DSA_PK_ONE_##kind)                               \
	DSA_CODEC_PACKED_FAST_(name, suffix, dirval, pexpr, fast_call)         \
	static inline OFL_ALWAYS_INLINE void codec_##name##_##suffix##_at(     \
		const struct ofl_dsa_decoder *d, const struct ofl_buf *fr,     \
		struct ofl_dsa_packed *o, unsigned *refused)                   \
	{                                                                      \
		uint64_t w = codec_##name##_##suffix##_fast(d, fr);            \
                                                                               \
		if (DSA_UNLIKELY(w & DSA_PK_SLOW)) {                           \
			w = codec_##name##_##suffix##_one(d, fr, o);           \
			*refused += !w;                                        \
		}                                                              \
		o->word = w;                                                   \
	}                                                                      \
	static DSA_PK_LOOP_##kind unsigned codec_##name##_##suffix##_loop(     \
		const struct ofl_dsa_decoder *d, const struct ofl_buf *frames, \
		unsigned n, struct ofl_dsa_packed *out)                        \
	{                                                                      \
		unsigned refused = 0, i = 0;                                   \
                                                                               \
		for (; n - i >= 4; i += 4) {                                   \
			codec_##name##_##suffix##_at(d, frames + i, out + i,   \
			                             &refused);                \
			codec_##name##_##suffix##_at(d, frames + i + 1,        \
			                             out + i + 1, &refused);   \
			codec_##name##_##suffix##_at(d, frames + i + 2,        \
			                             out + i + 2, &refused);   \
			codec_##name##_##suffix##_at(d, frames + i + 3,        \
			                             out + i + 3, &refused);   \
		}                                                              \
		for (; i < n; i++)                                             \
			codec_##name##_##suffix##_at(d, frames + i, out + i,   \
			                             &refused);                \
		return refused;                                                \
	}                                                                      \
	DSA_PK_ENTRY_##kind(name, suffix)

#define DSA_CODEC_DEFINE_(name, dec_call, enc, fold_p, fast_call, kind)    \
	static int codec_##name##_dec(const struct ofl_dsa_ops *ops,           \
	                              const struct ofl_dsa_params *p, int dir,  \
	                              const struct dsa_frame *f,                \
	                              struct ofl_dsa_meta *m,                   \
	                              struct ofl_dsa_view *v)                   \
	{                                                                      \
		(void)ops;                                                     \
		(void)p;                                                       \
		return dec_call;                                               \
	}                                                                      \
	DSA_CODEC_ONE_(name, rx, OFL_DSA_RX, dec_call, fold_p)                 \
	DSA_CODEC_ONE_(name, tx, OFL_DSA_TX, dec_call, fold_p)                 \
	DSA_CODEC_CUT_(name, rx_cut0, OFL_DSA_RX, dec_call, &zero_params)      \
	DSA_CODEC_CUT_(name, tx_cut0, OFL_DSA_TX, dec_call, &zero_params)      \
	DSA_CODEC_CUT_(name, rx_cutp, OFL_DSA_RX, dec_call, &d->params)        \
	DSA_CODEC_CUT_(name, tx_cutp, OFL_DSA_TX, dec_call, &d->params)        \
	DSA_CODEC_BRIEF_(name, rx_brief0, OFL_DSA_RX, dec_call, &zero_params)  \
	DSA_CODEC_BRIEF_(name, tx_brief0, OFL_DSA_TX, dec_call, &zero_params)  \
	DSA_CODEC_BRIEF_(name, rx_briefp, OFL_DSA_RX, dec_call, &d->params)    \
	DSA_CODEC_BRIEF_(name, tx_briefp, OFL_DSA_TX, dec_call, &d->params)    \
	DSA_CODEC_BURST_(name, rx_burst0, OFL_DSA_RX, dec_call, &zero_params)  \
	DSA_CODEC_BURST_(name, tx_burst0, OFL_DSA_TX, dec_call, &zero_params)  \
	DSA_CODEC_BURST_(name, rx_burstp, OFL_DSA_RX, dec_call, &d->params)    \
	DSA_CODEC_BURST_(name, tx_burstp, OFL_DSA_TX, dec_call, &d->params)    \
	DSA_CODEC_PACKED_(name, rx_packed0, OFL_DSA_RX, dec_call, &zero_params,      \
	                  fast_call, kind)                                     \
	DSA_CODEC_PACKED_(name, tx_packed0, OFL_DSA_TX, dec_call, &zero_params,      \
	                  fast_call, kind)                                     \
	DSA_CODEC_PACKED_(name, rx_packedp, OFL_DSA_RX, dec_call, &d->params,      \
	                  fast_call, kind)                                     \
	DSA_CODEC_PACKED_(name, tx_packedp, OFL_DSA_TX, dec_call, &d->params,      \
	                  fast_call, kind)                                     \
	const struct ofl_dsa_codec dsa_codec_##name = {                        \
		codec_##name##_dec, enc, { codec_##name##_rx, codec_##name##_tx }, \
		{ { (fold_p) ? codec_##name##_rx_cut0 : codec_##name##_rx_cutp, \
		    codec_##name##_rx_cutp },                                  \
		  { (fold_p) ? codec_##name##_tx_cut0 : codec_##name##_tx_cutp, \
		    codec_##name##_tx_cutp } },                                \
		{ { (fold_p) ? codec_##name##_rx_brief0 : codec_##name##_rx_briefp, \
		    codec_##name##_rx_briefp },                                \
		  { (fold_p) ? codec_##name##_tx_brief0 : codec_##name##_tx_briefp, \
		    codec_##name##_tx_briefp } },                              \
		{ { (fold_p) ? codec_##name##_rx_burst0 : codec_##name##_rx_burstp, \
		    codec_##name##_rx_burstp },                                \
		  { (fold_p) ? codec_##name##_tx_burst0 : codec_##name##_tx_burstp, \
		    codec_##name##_tx_burstp } },                              \
		{ { (fold_p) ? codec_##name##_rx_packed0 : codec_##name##_rx_packedp, \
		    codec_##name##_rx_packedp },                               \
		  { (fold_p) ? codec_##name##_tx_packed0 : codec_##name##_tx_packedp, \
		    codec_##name##_tx_packedp } }                              \
	}

/* A codec from dec(ops, p, dir, f, m, v) (a DSA_DECODER) and an encoder;
 * DSA_CODEC_P when dec reads params, DSA_CODEC_P_FAST with a packed fast
 * path fast(dir, p, frame, len) (DSA_CODEC_PACKED_). */
#define DSA_CODEC(name, dec, enc)                                              \
	DSA_CODEC_DEFINE_(name, dec(ops, p, dir, f, m, v), enc, 0, DSA_PK_SLOW, \
	                  pk_slow)
#define DSA_CODEC_P(name, dec, enc)                                            \
	DSA_CODEC_DEFINE_(name, dec(ops, p, dir, f, m, v), enc, 1, DSA_PK_SLOW, \
	                  pk_slow)
#define DSA_CODEC_P_FAST(name, dec, enc, fast)                                 \
	DSA_CODEC_DEFINE_(name, dec(ops, p, dir, f, m, v), enc, 1,             \
	                  fast(dir, p, frame, len), pk_fast)

/* A codec whose two functions read neither ops nor params:
 * dec(dir, f, m, v) (a DSA_DECODER) and enc(dir, m, tx); DSA_CODEC_D_FAST
 * with a packed fast path fast(dir, p, frame, len). */
#define DSA_CODEC_D_(name, dec, enc, fast_call, kind)                      \
	static int codec_##name##_enc(const struct ofl_dsa_ops *ops,           \
	                              const struct ofl_dsa_params *p, int dir,  \
	                              const struct ofl_dsa_meta *m,             \
	                              struct dsa_tx *tx)                        \
	{                                                                      \
		(void)ops;                                                     \
		(void)p;                                                       \
		return enc(dir, m, tx);                                        \
	}                                                                      \
	DSA_CODEC_DEFINE_(name, dec(dir, f, m, v), codec_##name##_enc, 0,      \
	                  fast_call, kind)
#define DSA_CODEC_D(name, dec, enc)                                            \
	DSA_CODEC_D_(name, dec, enc, DSA_PK_SLOW, pk_slow)
#define DSA_CODEC_D_FAST(name, dec, enc, fast)                                 \
	DSA_CODEC_D_(name, dec, enc, fast(dir, p, frame, len), pk_fast)

/* A codec from two functions taking a format descriptor first:
 * dec(&fmt, ops, p, dir, f, m, v) and enc(&fmt, ops, p, dir, m, tx);
 * DSA_CODEC_WITH_P when dec reads params; DSA_CODEC_WITH_FAST with a
 * packed fast path fast(&fmt, dir, p, frame, len). */
#define DSA_CODEC_WITH_(name, fmt, dec, enc, fold_p, fast_call, kind)      \
	static int codec_##name##_enc(const struct ofl_dsa_ops *ops,           \
	                              const struct ofl_dsa_params *p, int dir,  \
	                              const struct ofl_dsa_meta *m,             \
	                              struct dsa_tx *tx)                        \
	{                                                                      \
		return enc(&fmt, ops, p, dir, m, tx);                          \
	}                                                                      \
	DSA_CODEC_DEFINE_(name, dec(&fmt, ops, p, dir, f, m, v),               \
	                  codec_##name##_enc, fold_p, fast_call, kind)
#define DSA_CODEC_WITH(name, fmt, dec, enc)                                    \
	DSA_CODEC_WITH_(name, fmt, dec, enc, 0, DSA_PK_SLOW, pk_slow)
#define DSA_CODEC_WITH_P(name, fmt, dec, enc)                                  \
	DSA_CODEC_WITH_(name, fmt, dec, enc, 1, DSA_PK_SLOW, pk_slow)
#define DSA_CODEC_WITH_FAST(name, fmt, dec, enc, fast)                         \
	DSA_CODEC_WITH_(name, fmt, dec, enc, 0, fast(&fmt, dir, p, frame, len), \
	                pk_fast)
#define DSA_CODEC_WITH_P_FAST(name, fmt, dec, enc, fast)                       \
	DSA_CODEC_WITH_(name, fmt, dec, enc, 1, fast(&fmt, dir, p, frame, len), \
	                pk_fast)

#endif /* OFL_SRC_DSA_CODEC_H */
