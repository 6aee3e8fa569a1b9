/*
 * ip.c - the general start path's per-packet header sums and middle-segment
 * template (the bodies are tmpl.h's, which plain.c inlines too).
 */
#include "gso/tmpl.h"

void gso_bases(struct gso_it *it)
{
	tmpl_bases(it, it->tmpl + it->l3_off, it->tmpl + it->l4_off, it->l3, it->l3_hlen, it->l4proto,
	           it->csum, it->type);
}

void gso_mid_template(struct gso_it *it)
{
	tmpl_mid(it);
}
