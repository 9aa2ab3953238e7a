#!/usr/bin/env bash
# Build the HTML documentation with Sphinx, warnings as errors.
#   tools/build-docs.sh OUTDIR [TYPEID-REFERENCE]
# Gathers doc/conf.py, doc/index.rst, VERSION and src/<module>/doc/*.rst into OUTDIR/source,
# writes each module's attribute and trace-source reference page (<module>-attributes.rst)
# with the typeid-reference program (default build/typeid-reference) from the registered
# TypeIds, and writes OUTDIR/html. Exit status: 0 built without a warning, 1 a warning or error
# (listed), 77 sphinx-build missing (apt-get install python3-sphinx). Used by the CMake
# target `doc` and by test.py's sphinx-docs check.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: tools/build-docs.sh OUTDIR [TYPEID-REFERENCE]}
reference=${2:-$top/build/typeid-reference}
if ! command -v sphinx-build > /dev/null; then
  echo "sphinx-build not found (Debian: apt-get install python3-sphinx)"
  exit 77
fi
src="$out/source"
rm -rf "$src"
mkdir -p "$src"
cp "$top/doc/conf.py" "$top/doc/index.rst" "$top/VERSION" "$src/"
if [[ ! -x "$reference" ]]; then
  echo "no $reference: build the project first (cmake --build build --target typeid-reference)"
  exit 1
fi
for module in gsn st harp; do
  mkdir -p "$src/$module"
  cp "$top/src/$module/doc/"*.rst "$src/$module/"
  group=$(tr '[:lower:]' '[:upper:]' <<< "${module:0:1}")${module:1}
  "$reference" "$group" > "$src/$module/$module-attributes.rst"
done
# Every page of a module's doc folder must be in the index (Sphinx warns otherwise).
log="$out/sphinx-warnings.log"
if sphinx-build -q -W --keep-going -b html -d "$out/doctrees" "$src" "$out/html" 2> "$log"; then
  echo "documentation built without warnings: $out/html/index.html"
  exit 0
fi
echo "sphinx-build reported warnings or errors (paths are relative to $src):"
sed "s|$src/||g" "$log"
exit 1
