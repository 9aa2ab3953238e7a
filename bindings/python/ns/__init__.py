"""ns-3.37 with the gsn, st and harp modules, from Python (pybind11 bindings).

Used as ns-3's own bindings are::

    from ns import ns
    nodes = ns.network.NodeContainer()
    ns.core.Config.SetDefault("ns3::GsnChannel::Length", ns.core.DoubleValue(5))
    ns.core.Simulator.Run()

As in ns-3's bindings, every module name (ns.core, ns.network, ns.internet, ns.applications,
ns.flow_monitor, ns.gsn, ns.st, ns.harp, ...) names the one namespace that holds every class,
so ns.gsn.GsnFabricHelper is ns.GsnFabricHelper.

Template functions take the class in brackets, as with cppyy:
``ns.CreateObject[ns.GsnTrafficStats]()``, ``node.GetObject[ns.Ipv4]()``,
``ns.DynamicCast[ns.GsnNetDevice](device)``.
"""

from . import _ns

_MODULES = (
    "core",
    "network",
    "internet",
    "internet_apps",
    "applications",
    "flow_monitor",
    "point_to_point",
    "mobility",
    "stats",
    "gsn",
    "st",
    "harp",
)


class _Template:
    """A template function: ``f[cls](args)`` (cppyy's form) or ``f(cls, args)``."""

    def __init__(self, name, function):
        self.__name__ = name
        self._function = function

    def __getitem__(self, cls):
        return lambda *args: self._function(cls, *args)

    def __call__(self, cls, *args):
        return self._function(cls, *args)

    def __repr__(self):
        return "<ns-3 template function %s>" % self.__name__


class _BoundTemplate:
    """Object.GetObject as a template method: ``obj.GetObject[cls]()`` or ``obj.GetObject(cls)``."""

    def __init__(self, obj, function):
        self._obj = obj
        self._function = function

    def __getitem__(self, cls):
        return lambda: self._function(self._obj, cls)

    def __call__(self, cls):
        return self._function(self._obj, cls)


class _TemplateMethod:
    """Descriptor that makes a method usable with brackets, as cppyy's template methods."""

    def __init__(self, function):
        self._function = function

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return _BoundTemplate(obj, self._function)


def _create_object(cls, *attributes):
    """CreateObject[cls](): an object of the bound class cls (its TypeId needs a constructor);
    optional (name, value) pairs set attributes, as CreateObjectWithAttributes."""
    obj = _ns.CreateObjectByName(cls)
    for name, value in zip(attributes[::2], attributes[1::2]):
        obj.SetAttribute(name, value)
    return obj


def _dynamic_cast(cls, obj):
    """DynamicCast[cls](obj): obj if it is a cls (objects come back as their own class)."""
    return obj if isinstance(obj, cls) else None


_ns.CreateObject = _Template("CreateObject", _create_object)
_ns.DynamicCast = _Template("DynamicCast", _dynamic_cast)
_ns.Object.GetObject = _TemplateMethod(_ns.Object.GetObject)

for _name in _MODULES:
    setattr(_ns, _name, _ns)

ns = _ns

__all__ = ["ns"]
