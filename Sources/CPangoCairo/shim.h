#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <cairo/cairo-pdf.h>
#include <fontconfig/fontconfig.h>
#include <poppler.h>
#include <stdlib.h>

/// GObject cast macros do not import into Swift: typed wrappers instead.
static inline PangoFcFontMap *outbox_pango_fc_font_map(PangoFontMap *map) {
    return PANGO_FC_FONT_MAP(map);
}

/// `g_object_unref` for any GObject pointer Swift holds as an opaque pointer.
static inline void outbox_g_object_unref(void *object) {
    if (object) g_object_unref(object);
}

/// `free` as a cairo destroy callback (for mime data cairo owns).
static inline void outbox_free(void *data) { free(data); }
