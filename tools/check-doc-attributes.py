#!/usr/bin/env python3
"""Check the hand-written attribute tables of the module docs against the code.

The module chapters keep their own attribute tables, because they say where each default
comes from. This check reads the registered TypeIds (through build/typeid-reference, which
writes them as reStructuredText) and, for every class that has a table, fails when:
  * an attribute the class declares is missing from its table;
  * a row names an attribute the class (or a parent) does not have;
  * a row's default differs from the code's (numbers, times, booleans and names compared
    after normalization; a cell starting with "(" is a description and is not compared).

  tools/check-doc-attributes.py [TYPEID-REFERENCE]
Exit status 0 when every table agrees, 1 otherwise. Python standard library only.
"""

import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The tables: (file, the line that opens the class's part, class). The part runs to the next
# line of this list in the same file, or to the end of the file.
TABLES = [
    ("src/gsn/doc/gsn.rst", "ns3::GsnChannel", "ns3::GsnChannel"),
    ("src/gsn/doc/gsn.rst", "ns3::GsnPortDevice", "ns3::GsnPortDevice"),
    ("src/gsn/doc/gsn.rst", "ns3::GsnNetDevice", "ns3::GsnNetDevice"),
    ("src/gsn/doc/gsn.rst", "Trace sources", None),
    ("src/gsn/doc/gsn-topology-routing.rst", "Attributes", "ns3::GsnFabricWatchdog"),
    ("src/gsn/doc/gsn-traffic.rst", "Attributes of ``ns3::GsnTrafficGenerator``:",
     "ns3::GsnTrafficGenerator"),
    ("src/gsn/doc/gsn-traffic.rst", "Attributes of ``ns3::GsnTrafficStats``:",
     "ns3::GsnTrafficStats"),
    ("src/gsn/doc/gsn-distributed.rst", "The cable across ranks", "ns3::GsnRemoteChannel"),
    ("src/st/doc/st.rst", "Attributes", "ns3::StProtocol"),
    ("src/st/doc/st.rst", "Attributes of ``ns3::StSocket``:", "ns3::StSocket"),
    ("src/harp/doc/harp.rst", "Attributes of ``ns3::HarpProtocol``", "ns3::HarpProtocol"),
]

# Classes registered only in some builds (GsnRemoteChannel: with MPI); their table is checked
# when they are.
OPTIONAL = {"ns3::GsnRemoteChannel"}


def read_typeids(program):
    """{class: {"parent": name, "attributes": {name: default}}} for the three groups."""
    classes = {}
    for group in ("Gsn", "St", "Harp"):
        text = subprocess.run([program, group], check=True, capture_output=True,
                              text=True).stdout
        current = None
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line.startswith("ns3::") and i + 1 < len(lines) and lines[i + 1].startswith("==="):
                current = classes.setdefault(line, {"parent": None, "attributes": {}})
                continue
            m = re.match(r"Parent: ``(\S+)``", line)
            if m and current is not None:
                current["parent"] = m.group(1)
            for inherited in re.findall(r"Inherited from ``\S+``: (.*?)\.(?: |$)", line):
                for attr in re.findall(r"``(\w+)`` \(default ``(.*?)``\)", inherited):
                    current["attributes"].setdefault(attr[0], attr[1])
                    current.setdefault("inherited", set()).add(attr[0])
            m = re.match(r"   \* - ``(\w+)``$", line)
            if m and current is not None and i + 2 < len(lines):
                dm = re.match(r"     - ``(.*)``$", lines[i + 2])
                if dm and re.match(r"     - ``\S*``$", lines[i + 1]):
                    current["attributes"][m.group(1)] = dm.group(1)
    return classes


def all_attributes(classes, name):
    """Attributes of a class and of its parents within the project."""
    found = {}
    while name in classes:
        for attr, default in classes[name]["attributes"].items():
            found.setdefault(attr, default)
        name = classes[name]["parent"]
    return found


def section_lines(path, start, following):
    lines = open(os.path.join(TOP, path), encoding="utf-8").read().split("\n")
    try:
        begin = lines.index(start)
    except ValueError:
        return None
    end = len(lines)
    for other in following:
        if other in lines[begin + 1:]:
            end = min(end, lines.index(other, begin + 1))
    # ... and at the next section heading (a line underlined with = # * - ~ or ^).
    for i in range(begin + 2, end - 1):
        under = lines[i + 1]
        if (lines[i].strip() and len(under) >= len(lines[i].rstrip()) >= 3
                and re.fullmatch(r"([=#*~^-])\1+", under) and not lines[i].startswith("=")):
            end = i
            break
    return lines[begin + 1:end]


def table_rows(lines):
    """(name, default) of each table row: list-tables and simple tables."""
    rows = []
    for i, line in enumerate(lines):
        m = re.match(r"\s*\* - ``(\w+)``\s*$", line)
        if m and i + 1 < len(lines):
            dm = re.match(r"\s*- (.*)$", lines[i + 1])
            rows.append((m.group(1), dm.group(1).strip() if dm else ""))
            continue
        m = re.match(r"(?:``)?([A-Z]\w+)(?:``)?\s{2,}(\S.*?)(?:\s{2,}|$)", line)
        if m and not line.startswith(" "):
            rows.append((m.group(1), m.group(2).strip()))
    return rows


UNITS = {"fs": 1e-6, "ps": 1e-3, "ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9,
         "h": 3600e9, "d": 86400e9}


def normalize(text):
    """A comparable form of a default: a number (times in ns), a boolean or a name."""
    t = text.strip().strip("`").strip()
    t = re.sub(r"^ns3::\w+\[Constant=([^\]]+)\]$", r"\1", t)
    t = re.sub(r"^Constant\s+", "", t)  # "Constant 60000": a ConstantRandomVariable
    if t.lower() in ("none", "null"):  # a null pointer serializes as 0
        t = "0"
    m = re.match(r"^\+?(-?[0-9.]+(?:e[+-]?\d+)?)\s*(fs|ps|ns|us|ms|min|s|h|d)\b", t)
    if m:
        return float(m.group(1)) * UNITS[m.group(2)]
    m = re.match(r"^(0x[0-9A-Fa-f]+)\b", t)
    if m:
        return float(int(m.group(1), 16))
    m = re.match(r"^\+?(-?[0-9.]+(?:e[+-]?\d+)?)\b", t)
    if m:
        return float(m.group(1))
    m = re.match(r"^(true|false)\b", t, re.I)
    if m:
        return m.group(1).lower()
    m = re.match(r"^([A-Za-z]\w*)", t)
    return m.group(1) if m else t


def main():
    program = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "build", "typeid-reference")
    if not os.access(program, os.X_OK):
        print("no %s: build the project first" % program)
        return 1
    classes = read_typeids(program)
    problems = []
    checked = 0
    for path, start, cls in TABLES:
        if cls is None:
            continue
        following = [s for p, s, _ in TABLES if p == path and s != start]
        lines = section_lines(path, start, following)
        if lines is None:
            problems.append("%s: no line %r opens the table of %s" % (path, start, cls))
            continue
        if cls not in classes and cls in OPTIONAL:
            continue
        if cls not in classes:
            problems.append("%s: %s is not a registered class" % (path, cls))
            continue
        known = all_attributes(classes, cls)
        rows = {name: default for name, default in table_rows(lines) if name != "Attribute"}
        for name in classes[cls]["attributes"]:
            if name not in rows and name not in classes[cls].get("inherited", ()):
                problems.append("%s: %s::%s is missing from its table" % (path, cls, name))
        for name, default in rows.items():
            if name not in known:
                problems.append("%s: the table of %s lists %s, which the class does not have"
                                % (path, cls, name))
                continue
            checked += 1
            if default.startswith("(") or not default:
                continue
            doc, code = normalize(default), normalize(known[name])
            same = doc == code or (isinstance(doc, float) and isinstance(code, float)
                                   and abs(doc - code) <= 1e-9 * max(1.0, abs(code)))
            if not same:
                problems.append("%s: %s::%s: the table says %r, the code %r"
                                % (path, cls, name, default, known[name]))
    for p in problems:
        print(p)
    print("%d attribute rows checked against the code, %d problems" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
