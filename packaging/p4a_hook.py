"""python-for-android hook (buildozer.spec: ``p4a.hook``): add the FileProvider to the manifest.

python-for-android's manifest template has no place for a ``<provider>``; this hook runs after the
manifest is written and before gradle builds the APK, and adds the one the app's shared files and
camera photos go through (companion/app/platform.py: ``AUTHORITY``; paths in file_paths.xml,
copied to res/xml by ``android.res_xml``).
"""

from __future__ import annotations

from pathlib import Path

MANIFEST = Path("src/main/AndroidManifest.xml")
AUTHORITY = "org.ludoteca.ludoteca.fileprovider"
PROVIDER = f"""
        <provider android:name="androidx.core.content.FileProvider"
                  android:authorities="{AUTHORITY}"
                  android:exported="false"
                  android:grantUriPermissions="true">
            <meta-data android:name="android.support.FILE_PROVIDER_PATHS"
                       android:resource="@xml/file_paths" />
        </provider>
"""


def add_provider(manifest: str) -> str:
    """The manifest with the FileProvider inside ``<application>`` (once)."""
    if AUTHORITY in manifest:
        return manifest
    head, sep, tail = manifest.rpartition("</application>")
    if not sep:
        raise ValueError("AndroidManifest.xml has no </application>")
    return head + PROVIDER + sep + tail


def after_apk_build(toolchain) -> None:
    """Called by python-for-android in the distribution's folder."""
    MANIFEST.write_text(add_provider(MANIFEST.read_text("utf-8")), "utf-8")
