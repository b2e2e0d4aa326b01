#!/usr/bin/env python3
"""A TCP port forwarder on 127.0.0.1 (standard library only), for scripts/container-test: it stands
in for Docker's `-p HOST_PORT:CONTAINER_PORT` publishing where podman's port publishing cannot run
(it needs netfilter). A browser reaching the forwarded port sends `Host: 127.0.0.1:HOST_PORT` to a
gateway listening on CONTAINER_PORT, exactly as through a published port.

    forward.py LISTEN:TARGET ...     prints "ready" once every port listens; runs until killed
"""
import asyncio
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main():
    servers = []
    for spec in sys.argv[1:]:
        listen, target = (int(x) for x in spec.split(":"))

        async def handle(reader, writer, target=target):
            try:
                target_reader, target_writer = await asyncio.open_connection("127.0.0.1", target)
            except OSError:
                writer.close()
                return
            await asyncio.gather(pipe(reader, target_writer), pipe(target_reader, writer))

        servers.append(await asyncio.start_server(handle, "127.0.0.1", listen))
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
