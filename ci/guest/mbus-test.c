// SPDX-License-Identifier: GPL-2.0
/*
 * mbus-test: end-to-end test of the media bus format descriptors through
 * vimc, from userspace, in the guest. Prints KTAP.
 *
 * It proves the series' claim with the real uAPI only: the media controller
 * finds the entities and nodes, the sensor subdev negotiates, and the raw
 * capture (Sensor A -> Raw Capture 0, the link to Debayer A disabled) stores
 * what the sensor sends as the descriptor of its code says. The sizes it
 * expects come from its own table, written from the packing rules of commit
 * 9a74251d8bee, never from the kernel's helpers.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/media-bus-format.h>
#include <linux/media.h>
#include <linux/v4l2-subdev.h>
#include <linux/videodev2.h>

#define VIMC_CID_TEST_PATTERN	(0x00f00000 | 0xf000 | 0)
#define VIMC_CID_OSD_TEXT_MODE	(0x00f00000 | 0xf000 | 2)
#define VIMC_OSD_SHOW_NONE	2
#define MIN_W 16
#define MAX_W 4096
#define MIN_H 16
#define MAX_H 2160
#define CAP_W 320
#define CAP_H 240
#define NFRAMES 3

enum packing { NONE, PADHI, PADLO, EXT16 };

/*
 * What each code should give on the raw path, written from the rules: the
 * bytes of a line are width * bits / 8 for NONE, width * 2 for the 2X8
 * packings and for samples extended to 16 bits.
 */
struct fmt {
	const char *name;
	uint32_t code;
	uint32_t fourcc;
	unsigned int bits;	/* NONE: bits per pixel */
	enum packing packing;
};

/* The last argument said which were the 16 formats of the original. */
#define F(c, fcc, b, p, s) { #c, MEDIA_BUS_FMT_ ## c, V4L2_PIX_FMT_ ## fcc, b, p }
static const struct fmt fmts[] = {
	F(YUYV8_2X8, YUYV, 8, PADHI, 1),
	F(YVYU8_2X8, YVYU, 8, PADHI, 1),
	F(UYVY8_2X8, UYVY, 8, PADHI, 1),
	F(VYUY8_2X8, VYUY, 8, PADHI, 1),
	F(RGB555_2X8_PADHI_LE, RGB555, 8, PADHI, 1),
	F(RGB555_2X8_PADHI_BE, RGB555X, 8, PADHI, 1),
	F(RGB565_2X8_LE, RGB565, 8, PADHI, 1),
	F(RGB565_2X8_BE, RGB565X, 8, PADHI, 1),
	F(SBGGR8_1X8, SBGGR8, 8, NONE, 1),
	F(SBGGR10_1X10, SBGGR10, 10, EXT16, 1),
	F(Y8_1X8, GREY, 8, NONE, 1),
	F(Y10_1X10, Y10, 10, EXT16, 1),
	F(SBGGR10_2X8_PADHI_LE, SBGGR10, 8, PADHI, 1),
	F(SBGGR10_2X8_PADLO_LE, SBGGR10, 8, PADLO, 1),
	F(SBGGR10_2X8_PADHI_BE, SBGGR10, 8, PADHI, 1),
	F(SBGGR10_2X8_PADLO_BE, SBGGR10, 8, PADLO, 1),
	F(BGR888_1X24, BGR24, 24, NONE, 0),
	F(BGR888_3X8, BGR24, 24, NONE, 0),
	F(RGB888_1X24, RGB24, 24, NONE, 0),
	F(RGB888_2X12_BE, RGB24, 24, NONE, 0),
	F(RGB888_2X12_LE, RGB24, 24, NONE, 0),
	F(RGB888_3X8, RGB24, 24, NONE, 0),
	F(RGB888_1X7X4_SPWG, RGB24, 24, NONE, 0),
	F(RGB888_1X7X4_JEIDA, RGB24, 24, NONE, 0),
	F(RGB888_1X32_PADHI, RGB24, 24, NONE, 0),
	F(GBR888_1X24, RGB24, 24, NONE, 0),
	F(ARGB8888_1X32, ARGB32, 32, NONE, 0),
	F(SGBRG8_1X8, SGBRG8, 8, NONE, 0),
	F(SGRBG8_1X8, SGRBG8, 8, NONE, 0),
	F(SRGGB8_1X8, SRGGB8, 8, NONE, 0),
	F(SGBRG10_1X10, SGBRG10, 10, EXT16, 0),
	F(SGRBG10_1X10, SGRBG10, 10, EXT16, 0),
	F(SRGGB10_1X10, SRGGB10, 10, EXT16, 0),
	F(SBGGR10_ALAW8_1X8, SBGGR10ALAW8, 8, NONE, 0),
	F(SGBRG10_ALAW8_1X8, SGBRG10ALAW8, 8, NONE, 0),
	F(SGRBG10_ALAW8_1X8, SGRBG10ALAW8, 8, NONE, 0),
	F(SRGGB10_ALAW8_1X8, SRGGB10ALAW8, 8, NONE, 0),
	F(SBGGR10_DPCM8_1X8, SBGGR10DPCM8, 8, NONE, 0),
	F(SGBRG10_DPCM8_1X8, SGBRG10DPCM8, 8, NONE, 0),
	F(SGRBG10_DPCM8_1X8, SGRBG10DPCM8, 8, NONE, 0),
	F(SRGGB10_DPCM8_1X8, SRGGB10DPCM8, 8, NONE, 0),
	F(SBGGR12_1X12, SBGGR12, 12, EXT16, 0),
	F(SGBRG12_1X12, SGBRG12, 12, EXT16, 0),
	F(SGRBG12_1X12, SGRBG12, 12, EXT16, 0),
	F(SRGGB12_1X12, SRGGB12, 12, EXT16, 0),
};
#define NFMTS (sizeof(fmts) / sizeof(fmts[0]))

static unsigned int ntests, nfailed;
static char diag[512];
/*
 * The results, in KTAP, one line as soon as each is known (stdout is line
 * buffered): a crash or a hang loses none of what ran before it. The count
 * is not known before the run, so the subtest has no plan; its result line
 * comes last, and a run that never gets there is a crash for the parser.
 */
static FILE *out;

/*
 * One KTAP result; the reason of a failure is printed as a diagnostic. A
 * test that does not apply here is said as such: KTAP's SKIP, with why.
 */
static int report(int ok, const char *skip, const char *fmt, va_list ap)
{
	char name[160];

	vsnprintf(name, sizeof(name), fmt, ap);
	ntests++;
	if (skip) {
		fprintf(out, "    ok %u %s # SKIP %s\n", ntests, name, skip);
	} else {
		if (!ok) {
			nfailed++;
			fprintf(out, "    # %s: %s\n", name,
				diag[0] ? diag : "failed");
		}
		fprintf(out, "    %sok %u %s\n", ok ? "" : "not ", ntests, name);
	}
	diag[0] = 0;
	return ok;
}

static int result(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ok = report(ok, NULL, fmt, ap);
	va_end(ap);
	return ok;
}

static void skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(1, reason, fmt, ap);
	va_end(ap);
}

static int why(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(diag, sizeof(diag), fmt, ap);
	va_end(ap);
	return 0;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* --- discovery through MEDIA_IOC_G_TOPOLOGY */

struct node {
	uint32_t entity;
	char path[160];
};

static int media_fd = -1;
static struct node sensor, rawcap, debayer, scaler;
static uint32_t sensor_pad, debayer_pad;
/* The data link Sensor A -> Debayer A: 1 immutable, 0 not, -1 not found. */
static int link_immutable = -1;

static int devnode_path(uint32_t major, uint32_t minor, char *path, size_t n)
{
	char f[96], line[128];
	FILE *fp;

	snprintf(f, sizeof(f), "/sys/dev/char/%u:%u/uevent", major, minor);
	fp = fopen(f, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, n, "/dev/%s", line + 8);
			fclose(fp);
			return 0;
		}
	}
	fclose(fp);
	return -1;
}

static int discover(void)
{
	struct media_v2_topology topo = { 0 };
	struct media_v2_entity *ents;
	struct media_v2_interface *intfs;
	struct media_v2_link *links;
	struct media_v2_pad *pads;
	struct media_device_info info;
	char path[32];
	unsigned int i, j;

	for (i = 0; i < 16 && media_fd < 0; i++) {
		int fd;

		snprintf(path, sizeof(path), "/dev/media%u", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		if (!xioctl(fd, MEDIA_IOC_DEVICE_INFO, &info) &&
		    !strcmp(info.driver, "vimc"))
			media_fd = fd;
		else
			close(fd);
	}
	if (media_fd < 0)
		return why("no media device of vimc");

	if (xioctl(media_fd, MEDIA_IOC_G_TOPOLOGY, &topo))
		return why("MEDIA_IOC_G_TOPOLOGY: %s", strerror(errno));
	ents = calloc(topo.num_entities, sizeof(*ents));
	intfs = calloc(topo.num_interfaces, sizeof(*intfs));
	links = calloc(topo.num_links, sizeof(*links));
	pads = calloc(topo.num_pads, sizeof(*pads));
	topo.ptr_entities = (uintptr_t)ents;
	topo.ptr_interfaces = (uintptr_t)intfs;
	topo.ptr_links = (uintptr_t)links;
	topo.ptr_pads = (uintptr_t)pads;
	if (xioctl(media_fd, MEDIA_IOC_G_TOPOLOGY, &topo))
		return why("MEDIA_IOC_G_TOPOLOGY: %s", strerror(errno));

	for (i = 0; i < topo.num_entities; i++) {
		struct node *n = !strcmp(ents[i].name, "Sensor A") ? &sensor :
				 !strcmp(ents[i].name, "Raw Capture 0") ? &rawcap :
				 !strcmp(ents[i].name, "Debayer A") ? &debayer :
				 !strcmp(ents[i].name, "Scaler") ? &scaler : NULL;

		if (!n)
			continue;
		n->entity = ents[i].id;
		/* The interface link from the entity's devnode. */
		for (j = 0; j < topo.num_links; j++) {
			unsigned int k;

			if ((links[j].flags & MEDIA_LNK_FL_LINK_TYPE) !=
			    MEDIA_LNK_FL_INTERFACE_LINK ||
			    links[j].sink_id != ents[i].id)
				continue;
			for (k = 0; k < topo.num_interfaces; k++)
				if (intfs[k].id == links[j].source_id)
					devnode_path(intfs[k].devnode.major,
						     intfs[k].devnode.minor,
						     n->path, sizeof(n->path));
		}
	}
	for (i = 0; i < topo.num_pads; i++) {
		if (pads[i].entity_id == sensor.entity && pads[i].index == 0)
			sensor_pad = 0;
		if (pads[i].entity_id == debayer.entity && pads[i].index == 0)
			debayer_pad = 0;
	}
	for (j = 0; j < topo.num_links; j++) {
		uint32_t src = 0, snk = 0;

		if ((links[j].flags & MEDIA_LNK_FL_LINK_TYPE) !=
		    MEDIA_LNK_FL_DATA_LINK)
			continue;
		for (i = 0; i < topo.num_pads; i++) {
			if (pads[i].id == links[j].source_id)
				src = pads[i].entity_id;
			if (pads[i].id == links[j].sink_id)
				snk = pads[i].entity_id;
		}
		if (src == sensor.entity && snk == debayer.entity)
			link_immutable = !!(links[j].flags & MEDIA_LNK_FL_IMMUTABLE);
	}
	free(ents);
	free(intfs);
	free(links);
	free(pads);
	if (link_immutable < 0)
		return why("no data link Sensor A -> Debayer A in the topology");
	if (!sensor.path[0] || !rawcap.path[0] || !debayer.entity ||
	    !scaler.entity)
		return why("Sensor A (%s), Raw Capture 0 (%s), Debayer A or Scaler not found",
			   sensor.path, rawcap.path);
	return 1;
}

static int set_debayer_link(int enable)
{
	struct media_link_desc l = { 0 };

	l.source.entity = sensor.entity;
	l.source.index = sensor_pad;
	l.sink.entity = debayer.entity;
	l.sink.index = debayer_pad;
	l.flags = enable ? MEDIA_LNK_FL_ENABLED : 0;
	if (xioctl(media_fd, MEDIA_IOC_SETUP_LINK, &l))
		return why("MEDIA_IOC_SETUP_LINK Sensor A -> Debayer A %s: %s",
			   enable ? "on" : "off", strerror(errno));
	return 1;
}

/* --- the sensor subdev */

static int sd_fd = -1, vid_fd = -1;
static uint32_t offered[128];
static unsigned int noffered;

static int sd_get(uint32_t which, struct v4l2_mbus_framefmt *mf)
{
	struct v4l2_subdev_format f = { .which = which, .pad = 0 };

	if (xioctl(sd_fd, VIDIOC_SUBDEV_G_FMT, &f))
		return -errno;
	*mf = f.format;
	return 0;
}

static int sd_set(uint32_t which, uint32_t code, uint32_t w, uint32_t h,
		  struct v4l2_mbus_framefmt *out)
{
	struct v4l2_subdev_format f = { .which = which, .pad = 0 };

	f.format.code = code;
	f.format.width = w;
	f.format.height = h;
	f.format.field = V4L2_FIELD_NONE;
	if (xioctl(sd_fd, VIDIOC_SUBDEV_S_FMT, &f))
		return -errno;
	if (out)
		*out = f.format;
	return 0;
}

static int is_offered(uint32_t code)
{
	unsigned int i;

	for (i = 0; i < noffered; i++)
		if (offered[i] == code)
			return 1;
	return 0;
}

static int enum_codes(void)
{
	struct v4l2_subdev_mbus_code_enum e;

	for (noffered = 0; noffered < 128; noffered++) {
		memset(&e, 0, sizeof(e));
		e.index = noffered;
		e.which = V4L2_SUBDEV_FORMAT_ACTIVE;
		if (xioctl(sd_fd, VIDIOC_SUBDEV_ENUM_MBUS_CODE, &e)) {
			if (errno != EINVAL)
				return why("index %u: %s, not EINVAL",
					   noffered, strerror(errno));
			return noffered > 0 ? 1 : why("no code");
		}
		offered[noffered] = e.code;
	}
	return why("no EINVAL after 128 codes");
}

static int negotiate(uint32_t code)
{
	struct v4l2_mbus_framefmt before, after, got, tried;
	struct v4l2_subdev_frame_size_enum fse = { 0 };

	if (sd_get(V4L2_SUBDEV_FORMAT_ACTIVE, &before))
		return why("G_FMT ACTIVE failed");
	if (sd_set(V4L2_SUBDEV_FORMAT_TRY, code, 64, 48, &tried))
		return why("S_FMT TRY: %s", strerror(errno));
	if (sd_get(V4L2_SUBDEV_FORMAT_ACTIVE, &after) ||
	    memcmp(&before, &after, sizeof(before)))
		return why("S_FMT TRY changed the ACTIVE format");
	if (tried.code != code)
		return why("S_FMT TRY gave code 0x%x", tried.code);
	if (sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, code, 64, 48, &got))
		return why("S_FMT ACTIVE: %s", strerror(errno));
	if (sd_get(V4L2_SUBDEV_FORMAT_ACTIVE, &after) ||
	    after.code != code || after.width != 64 || after.height != 48)
		return why("ACTIVE set/get: 0x%x %ux%u", after.code,
			   after.width, after.height);
	fse.code = code;
	fse.which = V4L2_SUBDEV_FORMAT_ACTIVE;
	if (xioctl(sd_fd, VIDIOC_SUBDEV_ENUM_FRAME_SIZE, &fse))
		return why("ENUM_FRAME_SIZE: %s", strerror(errno));
	if (sd_set(V4L2_SUBDEV_FORMAT_TRY, code, 1, 1, &tried) ||
	    tried.width != fse.min_width || tried.height != fse.min_height)
		return why("1x1 gave %ux%u, ENUM_FRAME_SIZE min %ux%u",
			   tried.width, tried.height, fse.min_width, fse.min_height);
	if (sd_set(V4L2_SUBDEV_FORMAT_TRY, code, 100000, 100000, &tried) ||
	    tried.width != fse.max_width || tried.height != fse.max_height)
		return why("huge gave %ux%u, ENUM_FRAME_SIZE max %ux%u",
			   tried.width, tried.height, fse.max_width, fse.max_height);
	return 1;
}

/* --- the raw capture */

static uint64_t expect_bpl(const struct fmt *f, uint32_t width)
{
	if (f->packing == NONE)
		return ((uint64_t)width * f->bits + 7) / 8;
	return (uint64_t)width * 2;
}

static int vid_fmt(uint32_t fourcc, uint32_t w, uint32_t h,
		   struct v4l2_pix_format *pix)
{
	struct v4l2_format vf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	vf.fmt.pix.pixelformat = fourcc;
	vf.fmt.pix.width = w;
	vf.fmt.pix.height = h;
	vf.fmt.pix.field = V4L2_FIELD_NONE;
	if (xioctl(vid_fd, VIDIOC_S_FMT, &vf))
		return -errno;
	memset(&vf, 0, sizeof(vf));
	vf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (xioctl(vid_fd, VIDIOC_G_FMT, &vf))
		return -errno;
	*pix = vf.fmt.pix;
	return 0;
}

static int sizes(const struct fmt *f)
{
	static const uint32_t widths[] = { 16, 17, 321, 641, 4095, 4096 };
	struct v4l2_pix_format pix;
	unsigned int i;

	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		uint64_t bpl;

		if (vid_fmt(f->fourcc, widths[i], 33, &pix))
			return why("S_FMT %u wide: %s", widths[i], strerror(errno));
		if (pix.pixelformat != f->fourcc)
			return why("S_FMT gave fourcc %.4s", (char *)&pix.pixelformat);
		bpl = expect_bpl(f, pix.width);
		if (pix.bytesperline != bpl ||
		    pix.sizeimage != bpl * pix.height)
			return why("%ux%u: bytesperline %u sizeimage %u, expected %llu %llu",
				   pix.width, pix.height, pix.bytesperline,
				   pix.sizeimage, (unsigned long long)bpl,
				   (unsigned long long)(bpl * pix.height));
	}
	return 1;
}

/* The size capture() streams at. */
static uint32_t cap_w = CAP_W, cap_h = CAP_H;

/*
 * Stream NFRAMES frames of code at cap_w x cap_h into the raw capture set
 * to fourcc; copy the last into *frame (malloc'd). Returns 0, or -errno of
 * the call that failed (STREAMON's -EPIPE for a mismatch).
 */
static int capture(uint32_t code, uint32_t fourcc, uint8_t **frame,
		   uint32_t *size)
{
	struct v4l2_requestbuffers rb = { 0 };
	struct v4l2_pix_format pix;
	struct v4l2_buffer b;
	void *maps[4] = { 0 };
	size_t lens[4] = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int ret = 0;
	unsigned int i, n;

	if (sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, code, cap_w, cap_h, NULL))
		return -EINVAL;
	if (vid_fmt(fourcc, cap_w, cap_h, &pix))
		return -EINVAL;
	rb.count = 4;
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	if (xioctl(vid_fd, VIDIOC_REQBUFS, &rb) || rb.count > 4)
		return -ENOMEM;
	for (i = 0; i < rb.count; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		if (xioctl(vid_fd, VIDIOC_QUERYBUF, &b)) {
			ret = -errno;
			goto out;
		}
		lens[i] = b.length;
		maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
			       MAP_SHARED, vid_fd, b.m.offset);
		if (maps[i] == MAP_FAILED) {
			maps[i] = NULL;
			ret = -ENOMEM;
			goto out;
		}
		if (xioctl(vid_fd, VIDIOC_QBUF, &b)) {
			ret = -errno;
			goto out;
		}
	}
	if (xioctl(vid_fd, VIDIOC_STREAMON, &type)) {
		ret = -errno;
		goto out;
	}
	for (n = 0; n < NFRAMES; n++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		if (xioctl(vid_fd, VIDIOC_DQBUF, &b)) {
			ret = -errno;
			break;
		}
		if (b.bytesused != pix.sizeimage) {
			why("bytesused %u, sizeimage %u", b.bytesused, pix.sizeimage);
			ret = -EIO;
			break;
		}
		if (n == NFRAMES - 1) {
			*size = b.bytesused;
			*frame = malloc(b.bytesused);
			memcpy(*frame, maps[b.index], b.bytesused);
		} else if (xioctl(vid_fd, VIDIOC_QBUF, &b)) {
			ret = -errno;
			break;
		}
	}
	xioctl(vid_fd, VIDIOC_STREAMOFF, &type);
out:
	for (i = 0; i < 4; i++)
		if (maps[i])
			munmap(maps[i], lens[i]);
	rb.count = 0;
	xioctl(vid_fd, VIDIOC_REQBUFS, &rb);
	return ret;
}

struct shot {
	uint8_t *buf;
	uint32_t size;
};
static struct shot shots[NFMTS];

static const struct shot *shot_of(uint32_t code)
{
	unsigned int i;

	for (i = 0; i < NFMTS; i++)
		if (fmts[i].code == code)
			return shots[i].buf ? &shots[i] : NULL;
	return NULL;
}

/* --- memory layout invariants */

static int padding_zero(uint32_t code)
{
	const struct shot *s = shot_of(code);
	uint32_t i;

	if (!s)
		return why("no capture");
	for (i = 0; i + 1 < s->size; i += 2)
		if (s->buf[i + 1] & 0xfc)
			return why("sample at byte %u is 0x%02x%02x", i,
				   s->buf[i + 1], s->buf[i]);
	return 1;
}

/* The captures of two codes, of the same size. */
static int pair(uint32_t a, uint32_t b, const struct shot **x,
		const struct shot **y)
{
	*x = shot_of(a);
	*y = shot_of(b);
	if (!*x || !*y)
		return why("no capture of both");
	if ((*x)->size != (*y)->size)
		return why("sizes %u and %u", (*x)->size, (*y)->size);
	return 1;
}

static int same(uint32_t a, uint32_t b)
{
	const struct shot *x, *y;
	uint32_t i;

	if (!pair(a, b, &x, &y))
		return 0;
	for (i = 0; i < x->size; i++)
		if (x->buf[i] != y->buf[i])
			return why("first difference at byte %u: 0x%02x, 0x%02x",
				   i, x->buf[i], y->buf[i]);
	return 1;
}

static int swapped16(uint32_t a, uint32_t b)
{
	const struct shot *x, *y;
	uint32_t i;

	if (!pair(a, b, &x, &y))
		return 0;
	for (i = 0; i + 1 < x->size; i += 2)
		if (x->buf[i] != y->buf[i + 1] || x->buf[i + 1] != y->buf[i])
			return why("not byte-swapped at byte %u", i);
	return 1;
}

/* YUYV: Y0 U Y1 V; map to the positions of the other orders. */
static int yuv_order(uint32_t code, const int pos[4])
{
	const struct shot *x, *y;
	uint32_t i;
	int k;

	if (!pair(MEDIA_BUS_FMT_YUYV8_2X8, code, &x, &y))
		return 0;
	for (i = 0; i + 3 < x->size; i += 4)
		for (k = 0; k < 4; k++)
			if (x->buf[i + k] != y->buf[i + pos[k]])
				return why("pixel pair at byte %u differs", i);
	return 1;
}

/* --- the captured bytes against the documents */

/*
 * What the raw capture must hold when the sensor sends its "100% Red" test
 * pattern, written from the documents and not from any table of the kernel:
 * the pixel format that vimc stores each code of its raw path as (the one
 * whose component order is the code's, subdev-formats.rst), its bytes per
 * pixel and the bytes of the first two pixels of lines 0 and 1 as that
 * format's page lays them out. Red is the largest value of a component:
 * 0xff, 0x3ff in 10 bits and 0xfff in 12 bits, stored little-endian in 16
 * bits.
 *
 * Sensor A also feeds Debayer A through an enabled immutable link, so the
 * pipeline of Raw Capture 0 holds Debayer A: the capture is made at 640x480
 * with Debayer A's sink set to the code, and the mutable link Debayer A ->
 * Scaler disabled meanwhile. That is possible for Bayer codes only; vimc's
 * RGB codes cannot be captured raw without changing its immutable links.
 */
struct docbytes {
	const char *name;
	uint32_t code;
	uint32_t fourcc;
	unsigned int bpp;
	const char *line0, *line1;
	const char *doc;
};

#define D(c, fcc, b, l0, l1, doc) \
	{ #c, MEDIA_BUS_FMT_ ## c, V4L2_PIX_FMT_ ## fcc, b, l0, l1, doc }
static const struct docbytes docbytes[] = {
	D(SBGGR8_1X8, SBGGR8, 1, "0000", "00ff", "pixfmt-srggb8.rst: B G / G R"),
	D(SGBRG8_1X8, SGBRG8, 1, "0000", "ff00", "pixfmt-srggb8.rst: G B / R G"),
	D(SGRBG8_1X8, SGRBG8, 1, "00ff", "0000", "pixfmt-srggb8.rst: G R / B G"),
	D(SRGGB8_1X8, SRGGB8, 1, "ff00", "0000", "pixfmt-srggb8.rst: R G / G B"),
	D(SBGGR10_1X10, SBGGR10, 2, "00000000", "0000ff03", "pixfmt-srggb10.rst: B G / G R, 16-bit LE"),
	D(SGBRG10_1X10, SGBRG10, 2, "00000000", "ff030000", "pixfmt-srggb10.rst: G B / R G, 16-bit LE"),
	D(SGRBG10_1X10, SGRBG10, 2, "0000ff03", "00000000", "pixfmt-srggb10.rst: G R / B G, 16-bit LE"),
	D(SRGGB10_1X10, SRGGB10, 2, "ff030000", "00000000", "pixfmt-srggb10.rst: R G / G B, 16-bit LE"),
	D(SBGGR12_1X12, SBGGR12, 2, "00000000", "0000ff0f", "pixfmt-srggb12.rst: B G / G R, 16-bit LE"),
	D(SGBRG12_1X12, SGBRG12, 2, "00000000", "ff0f0000", "pixfmt-srggb12.rst: G B / R G, 16-bit LE"),
	D(SGRBG12_1X12, SGRBG12, 2, "0000ff0f", "00000000", "pixfmt-srggb12.rst: G R / B G, 16-bit LE"),
	D(SRGGB12_1X12, SRGGB12, 2, "ff0f0000", "00000000", "pixfmt-srggb12.rst: R G / G B, 16-bit LE"),
};
#define NDOCBYTES (sizeof(docbytes) / sizeof(docbytes[0]))

/* Compare bytes with a string of hex pairs. */
static int bytes_are(const uint8_t *b, const char *hex, char *got, size_t n)
{
	unsigned int i, len = strlen(hex) / 2;
	int ok = 1;

	got[0] = 0;
	for (i = 0; i < len; i++) {
		unsigned int v;

		snprintf(got + strlen(got), n - strlen(got), "%02x", b[i]);
		sscanf(hex + 2 * i, "%2x", &v);
		if (b[i] != v)
			ok = 0;
	}
	return ok;
}

static int set_pattern(const char *name)
{
	struct v4l2_queryctrl q = { .id = VIMC_CID_TEST_PATTERN };
	struct v4l2_querymenu m = { .id = VIMC_CID_TEST_PATTERN };
	struct v4l2_control c = { .id = VIMC_CID_TEST_PATTERN };

	if (xioctl(sd_fd, VIDIOC_QUERYCTRL, &q))
		return why("no test pattern control: %s", strerror(errno));
	if (!name) {
		c.value = q.default_value;
	} else {
		for (m.index = q.minimum; m.index <= (uint32_t)q.maximum; m.index++)
			if (!xioctl(sd_fd, VIDIOC_QUERYMENU, &m) &&
			    !strcmp((char *)m.name, name))
				break;
		if (m.index > (uint32_t)q.maximum)
			return why("no test pattern \"%s\"", name);
		c.value = m.index;
	}
	if (xioctl(sd_fd, VIDIOC_S_CTRL, &c))
		return why("VIDIOC_S_CTRL test pattern: %s", strerror(errno));
	return 1;
}

/*
 * The mutable link Debayer A -> Scaler, which takes the scaler and the
 * RGB/YUV capture (whose formats the tests before may have left apart)
 * into the pipeline of Raw Capture 0.
 */
static int set_scaler_link(int enable)
{
	struct media_link_desc l = { 0 };

	l.source.entity = debayer.entity;
	l.source.index = 1;
	l.sink.entity = scaler.entity;
	l.sink.index = 0;
	l.flags = enable ? MEDIA_LNK_FL_ENABLED : 0;
	if (xioctl(media_fd, MEDIA_IOC_SETUP_LINK, &l))
		return why("MEDIA_IOC_SETUP_LINK Debayer A -> Scaler %s: %s",
			   enable ? "on" : "off", strerror(errno));
	return 1;
}

/* Debayer A's sink pad: the code, at the size of the capture. */
static int debayer_sink(uint32_t code)
{
	struct v4l2_subdev_format f = { .which = V4L2_SUBDEV_FORMAT_ACTIVE };
	int fd = open(debayer.path, O_RDWR);
	int ret = 0;

	if (fd < 0)
		return -errno;
	f.pad = debayer_pad;
	f.format.code = code;
	f.format.width = cap_w;
	f.format.height = cap_h;
	f.format.field = V4L2_FIELD_NONE;
	if (xioctl(fd, VIDIOC_SUBDEV_S_FMT, &f))
		ret = -errno;
	else if (f.format.code != code)
		ret = -EINVAL;
	close(fd);
	return ret;
}

static int doc_bytes(const struct docbytes *d)
{
	struct v4l2_pix_format pix;
	char got0[64], got1[64];
	uint8_t *buf = NULL;
	uint32_t size = 0;
	int ret, ok;

	ret = debayer_sink(d->code);
	if (ret)
		return why("Debayer A's sink to %s: %s", d->name, strerror(-ret));
	if (vid_fmt(d->fourcc, cap_w, cap_h, &pix))
		return why("S_FMT %.4s: %s", (const char *)&d->fourcc,
			   strerror(errno));
	if (pix.pixelformat != d->fourcc)
		return why("S_FMT %.4s gave %.4s", (const char *)&d->fourcc,
			   (const char *)&pix.pixelformat);
	if (pix.bytesperline != cap_w * d->bpp)
		return why("bytesperline %u, %s gives %u", pix.bytesperline,
			   d->doc, cap_w * d->bpp);
	ret = capture(d->code, d->fourcc, &buf, &size);
	if (ret) {
		free(buf);
		return why("capture: %s", strerror(-ret));
	}
	ok = size >= 2 * pix.bytesperline &&
	     bytes_are(buf, d->line0, got0, sizeof(got0)) &
	     bytes_are(buf + pix.bytesperline, d->line1, got1, sizeof(got1));
	free(buf);
	if (!ok)
		return why("lines 0 and 1 begin %s / %s, %s gives %s / %s",
			   got0, got1, d->doc, d->line0, d->line1);
	return 1;
}

int main(void)
{
	struct v4l2_control ctrl = { VIMC_CID_OSD_TEXT_MODE, VIMC_OSD_SHOW_NONE };
	struct v4l2_subdev_format sf;
	struct v4l2_subdev_mbus_code_enum ce;
	struct v4l2_subdev_frame_size_enum fse;
	struct v4l2_fmtdesc fd;
	struct v4l2_frmsizeenum fs;
	struct v4l2_mbus_framefmt mf;
	unsigned int i;
	int ok, links_off, scaler_off;

	out = stdout;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: mbus-vimc\n");

	if (!result(discover(), "discovery through MEDIA_IOC_G_TOPOLOGY"))
		goto done;
	sd_fd = open(sensor.path, O_RDWR);
	vid_fd = open(rawcap.path, O_RDWR);
	if (!result(sd_fd >= 0 && vid_fd >= 0, "open %s and %s", sensor.path,
		    rawcap.path))
		goto done;
	/*
	 * A deterministic pattern: every control of the sensor back to its
	 * default (v4l2-compliance, run before, leaves them as it set them),
	 * then the OSD text, with its clock, off.
	 */
	{
		struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
		unsigned int nreset = 0;

		while (!xioctl(sd_fd, VIDIOC_QUERYCTRL, &q)) {
			struct v4l2_control c = { q.id, q.default_value };

			if (!(q.flags & (V4L2_CTRL_FLAG_READ_ONLY |
					 V4L2_CTRL_FLAG_DISABLED)) &&
			    (q.type == V4L2_CTRL_TYPE_INTEGER ||
			     q.type == V4L2_CTRL_TYPE_BOOLEAN ||
			     q.type == V4L2_CTRL_TYPE_MENU)) {
				if (xioctl(sd_fd, VIDIOC_S_CTRL, &c))
					why("reset control 0x%x: %s", q.id,
					    strerror(errno));
				nreset++;
			}
			q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		}
		if (xioctl(sd_fd, VIDIOC_S_CTRL, &ctrl))
			why("VIDIOC_S_CTRL: %s", strerror(errno));
		if (!nreset)
			why("no control to reset");
		result(!diag[0], "sensor controls at their defaults, OSD text off");
	}

	/* Negotiation on the sensor. */
	result(enum_codes(), "sensor ENUM_MBUS_CODE lists its codes and ends with EINVAL");
	for (i = 0; i < noffered; i++)
		result(negotiate(offered[i]), "negotiate 0x%04x", offered[i]);
	ok = !sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, 0xdead, 640, 480, &mf) &&
	     is_offered(mf.code);
	if (!ok)
		why("code 0xdead gave 0x%x", mf.code);
	result(ok, "an unsupported code is replaced by a supported one");
	ok = !sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, offered[0], 0, 0, &mf) &&
	     mf.width == MIN_W && mf.height == MIN_H &&
	     !sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, offered[0], 0xffffffff,
		     0xffffffff, &mf) &&
	     mf.width == MAX_W && mf.height == MAX_H;
	if (!ok)
		why("got %ux%u", mf.width, mf.height);
	result(ok, "zero and huge sizes are clamped");

	/* Bad input to the uAPI. */
	memset(&sf, 0, sizeof(sf));
	sf.which = V4L2_SUBDEV_FORMAT_ACTIVE;
	sf.pad = 7;
	result(xioctl(sd_fd, VIDIOC_SUBDEV_G_FMT, &sf) < 0 && errno == EINVAL,
	       "G_FMT on an invalid pad gives EINVAL");
	memset(&sf, 0, sizeof(sf));
	sf.which = 42;
	result(xioctl(sd_fd, VIDIOC_SUBDEV_G_FMT, &sf) < 0 && errno == EINVAL,
	       "G_FMT with an invalid which gives EINVAL");
	memset(&ce, 0, sizeof(ce));
	ce.index = noffered;
	result(xioctl(sd_fd, VIDIOC_SUBDEV_ENUM_MBUS_CODE, &ce) < 0 &&
	       errno == EINVAL, "ENUM_MBUS_CODE past the end gives EINVAL");
	memset(&fse, 0, sizeof(fse));
	fse.index = 1;
	fse.code = offered[0];
	result(xioctl(sd_fd, VIDIOC_SUBDEV_ENUM_FRAME_SIZE, &fse) < 0 &&
	       errno == EINVAL, "ENUM_FRAME_SIZE past the end gives EINVAL");
	memset(&fse, 0, sizeof(fse));
	fse.code = 0xdead;
	result(xioctl(sd_fd, VIDIOC_SUBDEV_ENUM_FRAME_SIZE, &fse) < 0 &&
	       errno == EINVAL, "ENUM_FRAME_SIZE of an unknown code gives EINVAL");
	memset(&fd, 0, sizeof(fd));
	fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fd.index = 1000;
	result(xioctl(vid_fd, VIDIOC_ENUM_FMT, &fd) < 0 && errno == EINVAL,
	       "ENUM_FMT past the end gives EINVAL");
	memset(&fs, 0, sizeof(fs));
	fs.index = 1;
	fs.pixel_format = V4L2_PIX_FMT_SBGGR8;
	result(xioctl(vid_fd, VIDIOC_ENUM_FRAMESIZES, &fs) < 0 && errno == EINVAL,
	       "ENUM_FRAMESIZES past the end gives EINVAL");

	/*
	 * Pass-through capture of every code the sensor offers. Where the link
	 * Sensor A -> Debayer A cannot be disabled (vimc's links are immutable,
	 * and libcamera relies on that), Debayer A stays in the pipeline of Raw
	 * Capture 0: its sink is set to the code, the scaler (whose formats the
	 * tests before may have left apart) is taken out of the pipeline, and a
	 * code that Debayer A does not take is not captured.
	 */
	if (link_immutable) {
		links_off = 0;
		skip("the link is immutable",
		     "disable the link Sensor A -> Debayer A");
	} else {
		links_off = result(set_debayer_link(0),
				   "disable the link Sensor A -> Debayer A");
	}
	scaler_off = result(set_scaler_link(0),
			    "disable the link Debayer A -> Scaler for the raw captures");
	for (i = 0; i < NFMTS; i++) {
		const struct fmt *f = &fmts[i];
		int ret;

		if (!is_offered(f->code))
			continue;
		result(sizes(f), "%s: bytesperline and sizeimage at 6 widths",
		       f->name);
		if (!links_off && (!scaler_off || debayer_sink(f->code))) {
			skip(scaler_off ? "Debayer A does not take it" :
					  "the scaler is in the pipeline",
			     "%s: stream %d frames through the raw capture",
			     f->name, NFRAMES);
			continue;
		}
		ret = capture(f->code, f->fourcc, &shots[i].buf, &shots[i].size);
		if (ret && !diag[0])
			why("%s", strerror(-ret));
		result(!ret, "%s: stream %d frames through the raw capture",
		       f->name, NFRAMES);
	}

	/* The pattern must be the same from one capture to the next. */
	{
		const struct shot *s1 = shot_of(MEDIA_BUS_FMT_SBGGR10_1X10);
		uint8_t *buf = NULL;
		uint32_t size = 0, k;
		int ret = -ENOENT;

		if (s1 && !(!links_off && debayer_sink(MEDIA_BUS_FMT_SBGGR10_1X10)))
			ret = capture(MEDIA_BUS_FMT_SBGGR10_1X10,
				      V4L2_PIX_FMT_SBGGR10, &buf, &size);

		ok = !ret && s1 && size == s1->size && !memcmp(buf, s1->buf, size);
		if (!ok && s1 && buf && size == s1->size) {
			for (k = 0; k < size && buf[k] == s1->buf[k]; k++)
				;
			why("first difference at byte %u of %u (line %u)", k, size,
			    k / (CAP_W * 2));
		}
		if (s1)
			result(ok, "SBGGR10_1X10 twice: the same buffer");
		else
			skip("not captured", "SBGGR10_1X10 twice: the same buffer");
		free(buf);
	}

	/* What the captured bytes must be. */
	/*
	 * Each of these compares captures: it applies where the codes it
	 * compares were captured (the sensor offers them, and the raw path
	 * takes them).
	 */
#define CAPTURED(a, b) (shot_of(a) && (!(b) || shot_of(b)))
#define ON_CAPTURES(a, b, test, ...)					\
	do {								\
		if (CAPTURED(a, b))					\
			result(test, __VA_ARGS__);			\
		else							\
			skip("not captured", __VA_ARGS__);		\
	} while (0)
	ON_CAPTURES(MEDIA_BUS_FMT_SBGGR10_1X10, 0,
		    padding_zero(MEDIA_BUS_FMT_SBGGR10_1X10),
		    "SBGGR10_1X10: padding bits zero");
	ON_CAPTURES(MEDIA_BUS_FMT_Y10_1X10, 0,
		    padding_zero(MEDIA_BUS_FMT_Y10_1X10),
		    "Y10_1X10: padding bits zero");
	for (i = 0; i < NFMTS; i++)
		if (fmts[i].fourcc == V4L2_PIX_FMT_SBGGR10 &&
		    fmts[i].code != MEDIA_BUS_FMT_SBGGR10_1X10) {
			ON_CAPTURES(fmts[i].code, 0, padding_zero(fmts[i].code),
				    "%s: padding bits zero", fmts[i].name);
			ON_CAPTURES(fmts[i].code, MEDIA_BUS_FMT_SBGGR10_1X10,
				    same(fmts[i].code, MEDIA_BUS_FMT_SBGGR10_1X10),
				    "%s: same buffer as SBGGR10_1X10", fmts[i].name);
		}
	ON_CAPTURES(MEDIA_BUS_FMT_RGB565_2X8_LE, MEDIA_BUS_FMT_RGB565_2X8_BE,
		    swapped16(MEDIA_BUS_FMT_RGB565_2X8_LE, MEDIA_BUS_FMT_RGB565_2X8_BE),
		    "RGB565_2X8_LE and _BE: byte-swapped images");
	ON_CAPTURES(MEDIA_BUS_FMT_RGB555_2X8_PADHI_LE, MEDIA_BUS_FMT_RGB555_2X8_PADHI_BE,
		    swapped16(MEDIA_BUS_FMT_RGB555_2X8_PADHI_LE,
			      MEDIA_BUS_FMT_RGB555_2X8_PADHI_BE),
		    "RGB555_2X8_PADHI_LE and _BE: byte-swapped images");
	{
		/* Where Y0 U Y1 V of YUYV stand in the other orders. */
		static const int uyvy[4] = { 1, 0, 3, 2 };
		static const int yvyu[4] = { 0, 3, 2, 1 };
		static const int vyuy[4] = { 1, 2, 3, 0 };

		ON_CAPTURES(MEDIA_BUS_FMT_YUYV8_2X8, MEDIA_BUS_FMT_UYVY8_2X8,
			    yuv_order(MEDIA_BUS_FMT_UYVY8_2X8, uyvy),
			    "UYVY8_2X8: the pixels of YUYV8_2X8");
		ON_CAPTURES(MEDIA_BUS_FMT_YUYV8_2X8, MEDIA_BUS_FMT_YVYU8_2X8,
			    yuv_order(MEDIA_BUS_FMT_YVYU8_2X8, yvyu),
			    "YVYU8_2X8: the pixels of YUYV8_2X8");
		ON_CAPTURES(MEDIA_BUS_FMT_YUYV8_2X8, MEDIA_BUS_FMT_VYUY8_2X8,
			    yuv_order(MEDIA_BUS_FMT_VYUY8_2X8, vyuy),
			    "VYUY8_2X8: the pixels of YUYV8_2X8");
	}

	/* A mismatch is refused, and the pipeline works afterwards. */
	{
		uint8_t *buf = NULL;
		uint32_t size;
		int ret;

		/* Debayer A, if it is in the pipeline, matches the sensor. */
		if (!links_off && scaler_off)
			debayer_sink(MEDIA_BUS_FMT_SBGGR8_1X8);
		ret = capture(MEDIA_BUS_FMT_SBGGR8_1X8, V4L2_PIX_FMT_SGBRG8,
			      &buf, &size);
		if (ret != -EPIPE)
			why("STREAMON gave %s", ret ? strerror(-ret) : "success");
		result(ret == -EPIPE, "sensor SBGGR8_1X8 to a GBRG8 capture: EPIPE");
		free(buf);
		buf = NULL;
		ret = capture(MEDIA_BUS_FMT_SBGGR8_1X8, V4L2_PIX_FMT_SBGGR8,
			      &buf, &size);
		if (ret && !diag[0])
			why("%s", strerror(-ret));
		result(!ret, "the pipeline streams again after the mismatch");
		free(buf);
	}
	/* The captured bytes, as the documents lay them out. */
	if (result(set_pattern("100% Red"), "sensor test pattern \"100%% Red\"")) {
		if (result(set_scaler_link(0), "disable the link Debayer A -> Scaler")) {
			cap_w = 640;
			cap_h = 480;
			for (i = 0; i < NDOCBYTES; i++)
				result(doc_bytes(&docbytes[i]), "%s: 100%% red as %s",
				       docbytes[i].name, docbytes[i].doc);
			result(!debayer_sink(MEDIA_BUS_FMT_SBGGR8_1X8),
			       "Debayer A's sink back to SBGGR8_1X8 640x480");
			result(set_scaler_link(1),
			       "enable the link Debayer A -> Scaler again");
			cap_w = CAP_W;
			cap_h = CAP_H;
		}
		result(set_pattern(NULL), "sensor test pattern back to its default");
	}
	if (links_off)
		result(set_debayer_link(1), "enable the link Sensor A -> Debayer A again");
	if (scaler_off)
		result(set_scaler_link(1),
		       "enable the link Debayer A -> Scaler after the raw captures");
	sd_set(V4L2_SUBDEV_FORMAT_ACTIVE, MEDIA_BUS_FMT_SBGGR8_1X8, 640, 480, NULL);

done:
	printf("    # mbus-vimc: %u tests, %u failed\n", ntests, nfailed);
	printf("%sok 1 mbus-vimc\n", nfailed ? "not " : "");
	return nfailed ? 1 : 0;
}
