/*
 * st.h: the header the ST Bypass API draft names ("st_header_t is a complete ST header, as
 * defined in st.h"). libst's routines, the ST_OPT_* options and the error codes are those of
 * st-bypass.h; a C program written against the draft includes either.
 */
#ifndef ST_H
#define ST_H

#include "st-bypass.h"

#endif /* ST_H */
