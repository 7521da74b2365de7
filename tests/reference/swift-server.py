# Runs one Swift daemon (proxy, account, container or object server, or an updater) with its swift.conf read
# from a directory of our own: `python3 swift-server.py SWIFT_DIR CONF SERVER_NAME`. Swift 2.30
# reads /etc/swift/swift.conf, a fixed path; set_swift_dir (what swift-recon uses for the same
# need) points it elsewhere, so the tests never write into /etc.
import sys

from swift.common import utils

swift_dir, conf_file, server = sys.argv[1:4]
utils.set_swift_dir(swift_dir)

# Imported after the switch: both read swift.conf when first imported, and again on reload.
from swift.common import constraints, storage_policy  # noqa: E402
from swift.common.wsgi import run_wsgi  # noqa: E402

storage_policy.reload_storage_policies()
constraints.reload_constraints()
if server == 'container-updater':
    from swift.common.daemon import run_daemon
    from swift.container.updater import ContainerUpdater
    run_daemon(ContainerUpdater, conf_file, verbose=True)
elif server == 'object-updater':
    from swift.common.daemon import run_daemon
    from swift.obj.updater import ObjectUpdater
    run_daemon(ObjectUpdater, conf_file, verbose=True)
else:
    sys.exit(run_wsgi(conf_file, server, verbose=True))
