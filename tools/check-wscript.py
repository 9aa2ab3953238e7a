#!/usr/bin/env python3
"""Keeps the waf-era build files (src/<module>/wscript) in step with the CMake descriptions.

Each module is described once, in src/<module>/CMakeLists.txt (build_lib) and
src/<module>/examples/CMakeLists.txt (build_lib_example). Waf-era ns-3 trees (<= 3.35) need a
wscript beside them. This script reads both and

  * (default) checks them: it lists every difference and exits 1 if there is one;
  * with --write, (re)generates src/<module>/wscript and src/<module>/examples/wscript from the
    CMake description.

What is compared: module name, module dependencies (the ns-3 modules of LIBRARIES_TO_LINK:
${libcore} -> 'core'), sources, public headers, private headers, test sources, and for each
example its name, sources and module dependencies.

Python standard library only. Usage: tools/check-wscript.py [--write] [--top DIR] [MODULE...]
"""

import argparse
import ast
import os
import re
import sys

DEFAULT_TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BUILD_LIB_KEYWORDS = {
    "options": {"IGNORE_PCH"},
    "single": {"LIBNAME"},
    "multi": {
        "SOURCE_FILES",
        "HEADER_FILES",
        "PRIVATE_HEADER_FILES",
        "LIBRARIES_TO_LINK",
        "TEST_SOURCES",
        "DEPRECATED_HEADER_FILES",
        "MODULE_ENABLED_FEATURES",
    },
}
EXAMPLE_KEYWORDS = {
    "options": set(),
    "single": {"NAME"},
    "multi": {"SOURCE_FILES", "HEADER_FILES", "LIBRARIES_TO_LINK"},
}


class CheckError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# CMake reading: a small tokenizer for command invocations, set() and list(APPEND).


def cmake_commands(text, path):
    """Yields (command name in lower case, [arguments]) for each command invocation."""
    i, n = 0, len(text)
    line = 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            m = re.match(r"#\[(=*)\[", text[i:])
            if m:
                end = text.find("]%s]" % m.group(1), i)
                if end < 0:
                    raise CheckError("%s:%d: unterminated bracket comment" % (path, line))
                line += text.count("\n", i, end)
                i = end + len(m.group(1)) + 2
            else:
                while i < n and text[i] != "\n":
                    i += 1
        else:
            m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[i:])
            if not m:
                raise CheckError("%s:%d: cannot read %r" % (path, line, text[i : i + 20]))
            name = m.group(0)
            i += len(name)
            while i < n and text[i] in " \t":
                i += 1
            if i >= n or text[i] != "(":
                raise CheckError("%s:%d: expected '(' after %s" % (path, line, name))
            args, i, line = _cmake_arguments(text, i + 1, path, line)
            yield name.lower(), args


def _cmake_arguments(text, i, path, line):
    """Reads arguments up to the matching ')'. Returns (args, index after ')', line)."""
    args = []
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            m = re.match(r"#\[(=*)\[", text[i:])
            if m:
                end = text.find("]%s]" % m.group(1), i)
                line += text.count("\n", i, end)
                i = end + len(m.group(1)) + 2
            else:
                while i < n and text[i] != "\n":
                    i += 1
        elif c == "(":
            depth += 1
            i += 1
        elif c == ")":
            if depth == 0:
                return args, i + 1, line
            depth -= 1
            i += 1
        elif c == '"':
            j = i + 1
            value = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    value.append(text[j + 1])
                    j += 2
                    continue
                if text[j] == "\n":
                    line += 1
                value.append(text[j])
                j += 1
            args.append(("quoted", "".join(value)))
            i = j + 1
        elif c == "[" and re.match(r"\[(=*)\[", text[i:]):
            m = re.match(r"\[(=*)\[", text[i:])
            close = "]%s]" % m.group(1)
            end = text.find(close, i)
            if end < 0:
                raise CheckError("%s:%d: unterminated bracket argument" % (path, line))
            args.append(("quoted", text[i + len(m.group(0)) : end]))
            line += text.count("\n", i, end)
            i = end + len(close)
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '()#"':
                if text[j] == "\\" and j + 1 < n:
                    j += 2
                    continue
                j += 1
            args.append(("unquoted", text[i:j]))
            i = j
    raise CheckError("%s:%d: missing ')'" % (path, line))


def _expand(args, variables):
    """Expands ${VAR} and splits unquoted arguments on ';', as CMake does."""
    out = []
    for kind, value in args:

        def repl(m):
            name = m.group(1)
            if name in variables:
                return ";".join(variables[name])
            # Unknown variables (${libcore}, ${CMAKE_...}) stay as written.
            return m.group(0)

        expanded = re.sub(r"\$\{([^}]+)\}", repl, value)
        if kind == "unquoted":
            out.extend(x for x in expanded.split(";") if x)
        else:
            out.append(expanded)
    return out


def _parse_keywords(args, spec, where):
    result = {k: [] for k in spec["multi"]}
    result.update({k: None for k in spec["single"]})
    result.update({k: False for k in spec["options"]})
    current = None
    for a in args:
        if a in spec["options"]:
            result[a] = True
            current = None
        elif a in spec["single"] or a in spec["multi"]:
            current = a
        elif current is None:
            raise CheckError("%s: unexpected argument %r" % (where, a))
        elif current in spec["single"]:
            if result[current] is not None:
                raise CheckError("%s: %s given twice" % (where, current))
            result[current] = a
        else:
            result[current].append(a)
    return result


def read_cmake_file(path, variables, calls, subdirs):
    """Collects build_lib/build_lib_example calls and add_subdirectory targets of one file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for name, raw in cmake_commands(text, os.path.relpath(path)):
        if name == "set" and raw:
            args = _expand(raw, variables)
            if args:
                values = [a for a in args[1:] if a not in ("PARENT_SCOPE", "CACHE")]
                variables[args[0]] = values
        elif name == "list" and len(raw) >= 2:
            args = _expand(raw, variables)
            if len(args) >= 2 and args[0] == "APPEND":
                variables.setdefault(args[1], []).extend(args[2:])
        elif name in ("build_lib", "build_lib_example", "build_example"):
            calls.append((name, _expand(raw, variables), path))
        elif name == "add_subdirectory" and raw:
            subdirs.append(_expand(raw, variables)[0])


def ns3_module_of(lib):
    """'${libcore}' -> 'core'; anything else (system libraries) -> None."""
    m = re.fullmatch(r"\$\{lib([A-Za-z0-9_-]+)\}", lib)
    if m:
        return m.group(1)
    m = re.fullmatch(r"(?:ns3::)?lib([A-Za-z0-9_-]+)", lib)
    if m and lib.startswith("ns3::"):
        return m.group(1)
    return None


def _deps(libs, exclude=None):
    deps = []
    others = []
    for lib in libs:
        mod = ns3_module_of(lib)
        if mod is None:
            others.append(lib)
        elif mod != exclude and mod not in deps:
            deps.append(mod)
    return deps, others


def cmake_description(module_dir):
    """The module as its CMake files describe it, or None if there is no CMakeLists.txt."""
    top_file = os.path.join(module_dir, "CMakeLists.txt")
    if not os.path.isfile(top_file):
        return None
    variables = {}
    calls = []
    subdirs = []
    read_cmake_file(top_file, variables, calls, subdirs)
    # ns-3's build_lib adds examples/ (and example/) by itself; a module may also do it.
    example_dirs = []
    for d in subdirs + ["examples", "example"]:
        if d not in example_dirs:
            example_dirs.append(d)
    for d in example_dirs:
        sub = os.path.join(module_dir, d, "CMakeLists.txt")
        if os.path.isfile(sub):
            read_cmake_file(sub, dict(variables), calls, [])

    libs = [c for c in calls if c[0] == "build_lib"]
    if len(libs) != 1:
        raise CheckError(
            "%s: expected one build_lib call, found %d" % (os.path.relpath(top_file), len(libs))
        )
    lib = _parse_keywords(libs[0][1], BUILD_LIB_KEYWORDS, os.path.relpath(libs[0][2]))
    if not lib["LIBNAME"]:
        raise CheckError("%s: build_lib without LIBNAME" % os.path.relpath(top_file))
    deps, others = _deps(lib["LIBRARIES_TO_LINK"], exclude=lib["LIBNAME"])
    desc = {
        "name": lib["LIBNAME"],
        "deps": deps,
        "other_libs": others,
        "source": list(lib["SOURCE_FILES"]),
        "headers": list(lib["HEADER_FILES"]) + list(lib["DEPRECATED_HEADER_FILES"]),
        "private_headers": list(lib["PRIVATE_HEADER_FILES"]),
        "test": list(lib["TEST_SOURCES"]),
        "examples": {},
    }
    for kind, args, path in calls:
        if kind == "build_lib":
            continue
        ex = _parse_keywords(args, EXAMPLE_KEYWORDS, os.path.relpath(path))
        if not ex["NAME"]:
            raise CheckError("%s: %s without NAME" % (os.path.relpath(path), kind))
        sub = os.path.relpath(os.path.dirname(path), module_dir)
        ex_deps, ex_others = _deps(ex["LIBRARIES_TO_LINK"])
        desc["examples"][ex["NAME"]] = {
            "dir": sub,
            "source": list(ex["SOURCE_FILES"]),
            "deps": ex_deps,
            "other_libs": ex_others,
        }
    return desc


# ---------------------------------------------------------------------------------------------
# wscript reading: Python syntax, read with ast (never executed).


def _literal_list(node, where):
    try:
        value = ast.literal_eval(node)
    except ValueError:
        raise CheckError("%s: not a literal list of file names" % where)
    if isinstance(value, str):
        return value.split()
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise CheckError("%s: not a literal list of file names" % where)


def _call_name(node):
    """'bld.create_ns3_module' for bld.create_ns3_module(...); 'bld' for bld(...)."""
    if not isinstance(node, ast.Call):
        return None
    f = node.func
    parts = []
    while isinstance(f, ast.Attribute):
        parts.append(f.attr)
        f = f.value
    if isinstance(f, ast.Name):
        parts.append(f.id)
        return ".".join(reversed(parts))
    return None


def read_wscript(path):
    """Returns {objects: [{kind, args, source, module, where}], recurse: [folders]}."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rel = os.path.relpath(path)
    try:
        tree = ast.parse(text, rel)
    except SyntaxError as err:
        raise CheckError("%s: %s" % (rel, err))
    objects = {}  # variable -> the object it names now
    all_objects = []
    recurse = []
    # In source order, so that a variable reused for several objects (obj = ...) works.
    nodes = sorted(
        (n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.Call))),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            where = "%s:%d" % (rel, node.lineno)
            if isinstance(target, ast.Name):
                call = _call_name(node.value)
                if call and call.endswith(
                    (".create_ns3_module", ".create_ns3_module_test_library", ".create_ns3_program")
                ):
                    try:
                        args = [ast.literal_eval(a) for a in node.value.args]
                    except ValueError:
                        raise CheckError("%s: arguments are not literals" % where)
                    objects[target.id] = obj = {
                        "kind": call.rsplit(".", 1)[1],
                        "args": args,
                        "source": [],
                        "module": None,
                        "where": where,
                    }
                    all_objects.append(obj)
                elif call and "." not in call:
                    features = None
                    for kw in node.value.keywords:
                        if kw.arg == "features":
                            features = ast.literal_eval(kw.value)
                    if features in ("ns3header", "ns3privateheader"):
                        objects[target.id] = obj = {
                            "kind": features,
                            "args": [],
                            "source": [],
                            "module": None,
                            "where": where,
                        }
                        all_objects.append(obj)
            elif (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id in objects
            ):
                obj = objects[target.value.id]
                if target.attr == "source":
                    obj["source"] = _literal_list(node.value, where)
                elif target.attr == "module":
                    obj["module"] = ast.literal_eval(node.value)
        elif isinstance(node, ast.Call) and _call_name(node) == "bld.recurse":
            try:
                recurse.extend(ast.literal_eval(a) for a in node.args)
            except ValueError:
                raise CheckError(
                    "%s:%d: bld.recurse argument is not a literal" % (rel, node.lineno)
                )
    return {"objects": all_objects, "recurse": recurse}


def wscript_description(module_dir):
    path = os.path.join(module_dir, "wscript")
    if not os.path.isfile(path):
        return None
    ws = read_wscript(path)
    desc = {
        "name": None,
        "deps": [],
        "source": [],
        "headers": [],
        "private_headers": [],
        "test": [],
        "examples": {},
        "recurse": ws["recurse"],
    }
    for obj in ws["objects"]:
        kind = obj["kind"]
        if kind == "create_ns3_module":
            desc["name"] = obj["args"][0] if obj["args"] else None
            desc["deps"] = list(obj["args"][1]) if len(obj["args"]) > 1 else []
            desc["source"] = obj["source"]
        elif kind == "create_ns3_module_test_library":
            desc["test"] = obj["source"]
        elif kind == "ns3header":
            desc["headers"] = obj["source"]
        elif kind == "ns3privateheader":
            desc["private_headers"] = obj["source"]
    for sub in ws["recurse"]:
        sub_path = os.path.join(module_dir, sub, "wscript")
        if not os.path.isfile(sub_path):
            continue
        for obj in read_wscript(sub_path)["objects"]:
            if obj["kind"] == "create_ns3_program" and obj["args"]:
                desc["examples"][obj["args"][0]] = {
                    "dir": sub,
                    "source": obj["source"],
                    "deps": list(obj["args"][1]) if len(obj["args"]) > 1 else [],
                }
    return desc


# ---------------------------------------------------------------------------------------------
# Comparing


def _list_diff(what, cmake, waf):
    diffs = []
    for f in cmake:
        if f not in waf:
            diffs.append("%s: %s is in CMakeLists.txt but not in wscript" % (what, f))
    for f in waf:
        if f not in cmake:
            diffs.append("%s: %s is in wscript but not in CMakeLists.txt" % (what, f))
    return diffs


def compare(module_dir, cm, ws):
    diffs = []
    if ws["name"] != cm["name"]:
        diffs.append("module name: CMake %r, wscript %r" % (cm["name"], ws["name"]))
    diffs += _list_diff("dependencies", cm["deps"], ws["deps"])
    diffs += _list_diff("sources", cm["source"], ws["source"])
    diffs += _list_diff("headers", cm["headers"], ws["headers"])
    diffs += _list_diff("private headers", cm["private_headers"], ws["private_headers"])
    diffs += _list_diff("test sources", cm["test"], ws["test"])
    for name, ex in cm["examples"].items():
        if name not in ws["examples"]:
            diffs.append("example %s: in CMake but not in any wscript" % name)
            continue
        wex = ws["examples"][name]
        if wex["dir"] != ex["dir"]:
            diffs.append(
                "example %s: folder %s (CMake) vs %s (wscript)" % (name, ex["dir"], wex["dir"])
            )
        diffs += _list_diff("example %s sources" % name, ex["source"], wex["source"])
        diffs += _list_diff("example %s dependencies" % name, ex["deps"], wex["deps"])
    for name in ws["examples"]:
        if name not in cm["examples"]:
            diffs.append("example %s: in a wscript but not in CMake" % name)
    example_dirs = sorted({ex["dir"] for ex in cm["examples"].values()})
    for d in example_dirs:
        if d not in ws["recurse"]:
            diffs.append("wscript does not recurse into %s/" % d)
    return diffs


# ---------------------------------------------------------------------------------------------
# Writing

HEADER = """\
# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# Build of the {what} for waf-era ns-3 source trees (ns-3 <= 3.35).
# Generated from CMakeLists.txt by tools/check-wscript.py --write: do not edit by hand; change
# CMakeLists.txt and run the script again (./test.py checks that the two agree).
"""


def _pylist(items, indent):
    if not items:
        return "[]"
    pad = " " * indent
    return "[\n" + "".join("%s    %r,\n" % (pad, i) for i in items) + pad + "]"


def module_wscript(cm):
    name = cm["name"]
    out = [HEADER.format(what="ns-3 module '%s'" % name), "", "def build(bld):"]
    out.append("    module = bld.create_ns3_module(%r, %r)" % (name, cm["deps"]))
    out.append("    module.source = %s" % _pylist(cm["source"], 4))
    if cm["other_libs"]:
        out.append("    # CMake also links: %s (declare them in configure() if needed)" % (
            " ".join(cm["other_libs"])))
    out.append("")
    if cm["test"]:
        out.append("    module_test = bld.create_ns3_module_test_library(%r)" % name)
        out.append("    module_test.source = %s" % _pylist(cm["test"], 4))
        out.append("")
    out.append("    headers = bld(features='ns3header')")
    out.append("    headers.module = %r" % name)
    out.append("    headers.source = %s" % _pylist(cm["headers"], 4))
    if cm["private_headers"]:
        out.append("")
        out.append("    private_headers = bld(features='ns3privateheader')")
        out.append("    private_headers.module = %r" % name)
        out.append("    private_headers.source = %s" % _pylist(cm["private_headers"], 4))
    dirs = sorted({ex["dir"] for ex in cm["examples"].values()})
    if dirs:
        out.append("")
        out.append("    if bld.env.ENABLE_EXAMPLES:")
        for d in dirs:
            out.append("        bld.recurse(%r)" % d)
    return "\n".join(out) + "\n"


def examples_wscript(cm, d):
    what = "examples of the ns-3 module '%s'" % cm["name"]
    out = [HEADER.format(what=what), "", "def build(bld):"]
    first = True
    for name, ex in cm["examples"].items():
        if ex["dir"] != d:
            continue
        if not first:
            out.append("")
        first = False
        out.append("    obj = bld.create_ns3_program(%r, %r)" % (name, ex["deps"]))
        out.append("    obj.source = %s" % _pylist(ex["source"], 4))
    if first:
        out.append("    pass")
    return "\n".join(out) + "\n"


def write_module(module_dir, cm):
    written = []

    def put(path, text):
        old = None
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            written.append(path)

    put(os.path.join(module_dir, "wscript"), module_wscript(cm))
    for d in sorted({ex["dir"] for ex in cm["examples"].values()}):
        put(os.path.join(module_dir, d, "wscript"), examples_wscript(cm, d))
    return written


# ---------------------------------------------------------------------------------------------


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help="(re)generate the wscript files")
    p.add_argument("--top", default=DEFAULT_TOP, help="repository root (default: this checkout)")
    p.add_argument("modules", nargs="*", help="modules to handle (default: every src/<module>)")
    args = p.parse_args(argv)
    args.top = os.path.abspath(args.top)
    os.chdir(args.top)  # messages name files relative to the top

    src = os.path.join(args.top, "src")
    if args.modules:
        module_dirs = [os.path.join(src, m) for m in args.modules]
    else:
        module_dirs = sorted(
            os.path.join(src, d) for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))
        )

    status = 0
    checked = 0
    for module_dir in module_dirs:
        rel = os.path.relpath(module_dir, args.top)
        try:
            if os.path.isfile(os.path.join(module_dir, "CMakeLists.txt")):
                checked += 1
            cm = cmake_description(module_dir)
            if cm is None:
                if args.modules:
                    print("%s: no CMakeLists.txt" % rel)
                    status = 1
                else:
                    print("%s: no CMakeLists.txt yet, skipped" % rel)
                continue
            if args.write:
                for path in write_module(module_dir, cm):
                    print("wrote %s" % os.path.relpath(path, args.top))
                continue
            ws = wscript_description(module_dir)
            if ws is None:
                print("%s: no wscript (run tools/check-wscript.py --write)" % rel)
                status = 1
                continue
            diffs = compare(module_dir, cm, ws)
        except (CheckError, OSError) as err:
            print("%s: error: %s" % (rel, err))
            status = 1
            continue
        if diffs:
            status = 1
            print("%s: wscript differs from CMakeLists.txt:" % rel)
            for d in diffs:
                print("    " + d)
            print("    (tools/check-wscript.py --write regenerates the wscript files)")
        else:
            print("%s: wscript matches CMakeLists.txt" % rel)
    if checked == 0:
        print("no module with a CMakeLists.txt under %s" % os.path.relpath(src, args.top))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
