from enum import StrEnum

class AnnotationModelReplyType(StrEnum):
    GROUP = "group"
    REPLY = "reply"

    def __str__(self) -> str:
        return str(self.value)
