from enum import StrEnum

class AnnotationModelFlagsItem(StrEnum):
    HIDDEN = "hidden"
    INVISIBLE = "invisible"
    LOCKED = "locked"
    LOCKEDCONTENTS = "lockedContents"
    NOROTATE = "noRotate"
    NOVIEW = "noView"
    NOZOOM = "noZoom"
    PRINT = "print"
    READONLY = "readOnly"
    TOGGLENOVIEW = "toggleNoView"

    def __str__(self) -> str:
        return str(self.value)
