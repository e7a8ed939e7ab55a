"""A file of the cache that the site publishes as it is (a session's ``session.json``,
its images): put in ``site_dir`` as a hard link to the cache's file rather than
copied, where the file system allows it.

MkDocs empties ``site_dir`` and copies every such file again at each build, one for
each session of the site; a link costs an entry in a folder, and no room of its own.
Nothing writes into such a file: the cache writes new files where a session changes
(and converts a session again where it finds one of its files changed since), and a
file already in ``site_dir``, which may be a link to the cache, is removed here
before the new one is put there. Where a link cannot be made (the cache and the site
on different file systems, a file system without them), the file is copied, as
MkDocs copies it.
"""

from __future__ import annotations

import contextlib
import os

from mkdocs.structure.files import File


class LinkedFile(File):
    def copy_file(self, dirty: bool = False) -> None:
        source = self.abs_src_path
        if self._content is not None or source is None or (dirty and not self.is_modified()):
            super().copy_file(dirty)
            return
        output = self.abs_dest_path
        os.makedirs(os.path.dirname(output), exist_ok=True)
        try:
            os.link(source, output)
            return
        except FileExistsError:
            with contextlib.suppress(OSError):
                os.unlink(output)  # not written into: it may be a link to a file of the cache
                os.link(source, output)
                return
        except OSError:
            pass
        super().copy_file(dirty)
