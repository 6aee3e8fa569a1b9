/* errors.c - error strings and version. */
#include <ofl/ofl.h>

const char *ofl_strerror(int err)
{
	switch (err) {
	case OFL_OK: return "success";
	case OFL_EINVAL: return "invalid argument";
	case OFL_ENOMEM: return "out of memory";
	case OFL_E2BIG: return "more buffers, bytes or segments than configured";
	case OFL_ENOSPC: return "caller-supplied space too small or exhausted";
	case OFL_ENOTSUP: return "not supported";
	case OFL_EPROTO: return "headers do not parse as requested";
	case OFL_ENOENT: return "no such name";
	case OFL_EBADMSG: return "frame does not carry a valid tag or header";
	case OFL_EAGAIN: return "stopped early; call again to resume";
	case OFL_ESTATE: return "call not allowed in this state";
	default: return "unknown error";
	}
}

const char *ofl_version(void)
{
	return OFL_VERSION_STRING;
}
