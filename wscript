# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
"""The gsn, st and harp modules in a waf-era ns-3 source tree (ns-3 <= 3.35).

This file is not a module and cannot build anything by itself. Each module folder carries its
own waf description, src/<module>/wscript (and src/<module>/examples/wscript), generated from
its CMakeLists.txt by tools/check-wscript.py --write. To use the modules with waf:

    cp -r src/gsn src/harp src/st /path/to/ns-3.35/contrib/      # or .../src/
    cd /path/to/ns-3.35
    ./waf configure --enable-examples --enable-tests
    ./waf build
    ./test.py -s gsn-micropacket

For ns-3 trees with CMake (ns-3 >= 3.36), copy the same folders; their CMakeLists.txt files are
ns-3 module descriptions (build_lib). For the standalone build against an installed ns-3.37,
see README.md (cmake -S . -B build).
"""

MESSAGE = (
    "this wscript only documents how to use the modules with waf: copy src/gsn, src/harp and "
    "src/st into the contrib/ (or src/) folder of an ns-3 source tree and build there; "
    "see the comment at the top of this file and README.md"
)


def options(opt):
    pass


def configure(conf):
    conf.fatal(MESSAGE)


def build(bld):
    bld.fatal(MESSAGE)
