"""Runs one Swift server, or builds the rings, with a run folder's swift.conf (test/helpers/s3-server.ts).

  swift-run.py serve RUN_DIR CONF SECTION       one server (proxy-server, account-server, ...) from CONF
  swift-run.py rings RUN_DIR PART_POWER ACCOUNT_PORT CONTAINER_PORT OBJECT_PORT
      first checks that RUN_DIR/devices/d1 takes user xattrs (exit 3 if not), then builds the three rings

Why not swift-proxy-server and the like: Swift reads its cluster settings (the hash salt, the storage policies)
from /etc/swift/swift.conf only, the system's file; its servers have no option for another. This sets Swift's
folder to RUN_DIR before any of Swift that reads the file is loaded, then runs the server as those programs do.
The rings are built by swift-ring-builder's own code (the swift package's program), run here for the nine
commands in one interpreter, since nine starts of the program take seconds.
"""
import os
import sys

from swift.common import utils


def use_run_dir(run_dir):
    utils.set_swift_dir(run_dir)
    # Loaded after the folder is set, so they read RUN_DIR/swift.conf; reloaded in case something imported them.
    from swift.common import constraints, storage_policy
    storage_policy.reload_storage_policies()
    constraints.reload_constraints()


def xattrs_work(folder):
    # Swift keeps an object's metadata in user xattrs of its file; a filesystem without them (tmpfs before Linux
    # 6.6, some overlays) fails every upload with 507. The helper then tries another folder.
    probe = os.path.join(folder, '.xattr-probe')
    try:
        with open(probe, 'wb'):
            pass
        os.setxattr(probe, 'user.swift.probe', b'1')
        return os.getxattr(probe, 'user.swift.probe') == b'1'
    except OSError:
        return False
    finally:
        if os.path.exists(probe):
            os.unlink(probe)


def build_rings(run_dir, part_power, ports):
    from swift.cli.ringbuilder import main as ring_builder
    for kind, port in ports.items():
        builder = '%s/%s.builder' % (run_dir, kind)
        # One replica on one device (the folder devices/d1), min_part_hours 1 (never waited for: no rebalance again).
        for command in (['create', part_power, '1', '1'],
                        ['add', 'r1z1-127.0.0.1:%s/d1' % port, '1'],
                        ['rebalance']):
            try:
                ring_builder(['swift-ring-builder', builder] + command)
            except SystemExit as e:
                # swift-ring-builder exits 0 on success and 1 on a warning, which a first rebalance may give.
                if e.code not in (None, 0, 1):
                    raise SystemExit('swift-ring-builder %s %s failed (%s)' % (builder, ' '.join(command), e.code))


def green_existing_locks():
    """eventlet's _green_existing_locks (eventlet 0.33, Debian 12) with one garbage collection in all.

    Swift's servers monkey-patch once everything is imported; eventlet then replaces each C RLock that exists by a
    pure-Python one, and for each (about 17: logging's and its handlers') it runs gc.collect() and gc.get_referrers()
    over every object of the loaded modules: about 0.7 s of CPU of a server's 1.5 s start, four servers a start
    (docs/s3.md "The test server"). The same replacement, done for every lock in one pass.
    """
    import gc
    import threading
    rlock_type = type(threading.RLock())
    pyrlock_type = type(threading._PyRLock())
    olds = [o for o in gc.get_objects() if isinstance(o, rlock_type) and not isinstance(o, pyrlock_type)]
    if not olds:
        return
    news = {}
    for old in olds:
        new = threading._PyRLock()
        while old._is_owned():
            old.release()
            new.acquire()
        news[id(old)] = (old, new)
    gc.collect()
    for ref in gc.get_referrers(*olds):
        try:
            ref_vars = vars(ref)
        except TypeError:
            continue
        for k, v in list(ref_vars.items()):
            pair = news.get(id(v))
            if pair is not None and pair[0] is v:
                setattr(ref, k, pair[1])


def main(argv):
    if len(argv) == 5 and argv[1] == 'serve':
        _, _, run_dir, conf, section = argv
        use_run_dir(run_dir)
        from swift.common.wsgi import run_wsgi
        import eventlet.patcher
        eventlet.patcher._green_existing_locks = green_existing_locks
        return run_wsgi(conf, section)
    if len(argv) == 7 and argv[1] == 'rings':
        _, _, run_dir, part_power, account, container, obj = argv
        if not xattrs_work(os.path.join(run_dir, 'devices', 'd1')):
            sys.stderr.write('no user xattrs in %s\n' % run_dir)
            return 3
        use_run_dir(run_dir)
        build_rings(run_dir, part_power, {'account': account, 'container': container, 'object': obj})
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
