"""Live sheets through nginx's pub/sub module nchan: the locations nginx serves them from."""

from __future__ import annotations


def nginx_locations(publish_socket: str) -> tuple[str, str]:
    """nginx text for the live sheets: (the public server's locations, the publisher's server).

    The first goes inside the public ``server`` block: the subscribers'
    stream of a game, ``/api/v1/games/<16-character id>/events``. The
    second is a whole ``server`` block listening on ``publish_socket`` (a
    unix socket in a folder only the app can reach), where the app
    publishes.
    """
    public = (
        'location ~ "^/api/v1/games/([0-9A-Za-z_-]{16})/events$" {\n'
        "    nchan_subscriber eventsource;\n"
        "    nchan_channel_id $1;\n"
        "}\n"
    )
    publisher = (
        "server {\n"
        f"    listen unix:{publish_socket};\n"
        '    location ~ "^/games/([0-9A-Za-z_-]{16})$" {\n'
        "        nchan_publisher;\n"
        "        nchan_channel_id $1;\n"
        "    }\n"
        "}\n"
    )
    return public, publisher
