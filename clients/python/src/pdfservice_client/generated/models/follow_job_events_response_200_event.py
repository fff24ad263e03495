from enum import StrEnum

class FollowJobEventsResponse200Event(StrEnum):
    END = "end"
    PROGRESS = "progress"
    STATE = "state"

    def __str__(self) -> str:
        return str(self.value)
