from enum import StrEnum

class GetPageTextDetail(StrEnum):
    BLOCKS = "blocks"
    LINES = "lines"
    WORDS = "words"

    def __str__(self) -> str:
        return str(self.value)
