# Sends one container's figures to its account now, as the container updater's next sweep would:
# `python3 swift-update-container.py SWIFT_DIR CONTAINER_CONF ACCOUNT CONTAINER`. The updater
# sweeps every container database on the device, and with the hundreds the test run makes a
# sweep took 190-320 s on CI's two loaded cores; a test waiting for one container's figures asks
# for that one. Exits 1 when the account server refused the report.
import os
import sys

from swift.common import utils

swift_dir, conf_file, account, container = sys.argv[1:5]
utils.set_swift_dir(swift_dir)

from swift.common import constraints, storage_policy  # noqa: E402
from swift.common.ring import Ring  # noqa: E402
from swift.container.updater import ContainerUpdater  # noqa: E402

storage_policy.reload_storage_policies()
constraints.reload_constraints()
conf = utils.readconf(conf_file, 'container-updater')
updater = ContainerUpdater(conf)
part, nodes = Ring(swift_dir, ring_name='container').get_nodes(account, container)
name = utils.hash_path(account, container)
for node in nodes:
    db = os.path.join(conf['devices'], node['device'], 'containers', str(part), name[-3:], name, name + '.db')
    if os.path.exists(db):
        updater.process_container(db)
sys.exit(1 if updater.failures else 0)
