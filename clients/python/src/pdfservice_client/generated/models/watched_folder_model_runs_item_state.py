from enum import StrEnum

class WatchedFolderModelRunsItemState(StrEnum):
    FAILED = "failed"
    QUEUED = "queued"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
