"""Small plan builders for the tests: an object touching x = 0 from the west and a 20 x 20 ft
square whose west edge is `gap` feet east of it, so the measured distance is exactly `gap`."""


def feature(kind, geometry, name=None):
    props = {"kind": kind} if name is None else {"kind": kind, "name": name}
    return {"type": "Feature", "properties": props, "geometry": geometry}


def square(x0, y0=0.0, size=20.0):
    return {"type": "Polygon", "coordinates": [[[x0, y0], [x0 + size, y0], [x0 + size, y0 + size],
                                                [x0, y0 + size], [x0, y0]]]}


def west_object(kind):
    """A geometry of `kind` whose nearest point to the square is on the line x = 0."""
    if kind in ("well", "cistern"):
        return {"type": "Point", "coordinates": [0, 10]}
    if kind in ("lot_line", "water_main", "water_service", "high_water_mark", "slope_edge_15pct"):
        return {"type": "LineString", "coordinates": [[0, -100], [0, 100]]}
    return square(-30, 0, 30)


def pair_plan(subject, obj, gap):
    return {"type": "FeatureCollection", "features": [
        feature(obj, west_object(obj), name=f"the {obj}"),
        feature(subject, square(gap), name=f"the {subject}"),
    ]}
