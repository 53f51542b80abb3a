"""A background job: one row for every long-running piece of work (an inventory import, a notice batch,
an allocation run, a large export, a daily sweep), so its page can show progress, the result and, when
it failed, why. The queue carries only the row's id; the row is the truth."""
from django.conf import settings
from django.db import models


class JobState(models.TextChoices):
    QUEUED = "queued", "Waiting to start"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class Job(models.Model):
    kind = models.CharField(max_length=40, help_text="What the job does (powts.jobs.kinds).")
    title = models.CharField(max_length=200, help_text="The job in words, for its page.")
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", null=True, blank=True, on_delete=models.PROTECT)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    state = models.CharField(max_length=10, choices=JobState.choices, default=JobState.QUEUED)
    params = models.JSONField(default=dict, blank=True, help_text="What the runner needs (ids, file names).")
    step = models.CharField(max_length=80, blank=True, help_text="What the job is doing, in words.")
    done = models.PositiveBigIntegerField(default=0)
    total = models.PositiveBigIntegerField(default=0)
    result = models.JSONField(default=dict, blank=True, help_text="The outcome: counts and links.")
    error = models.CharField(max_length=500, blank=True, help_text="Why it failed, in plain words.")
    attempts = models.PositiveSmallIntegerField(default=0)
    # The same request made twice (a double click, a retry by hand) finds the job already there.
    key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heard_at = models.DateTimeField(null=True, blank=True, help_text="The job's last sign of life.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "heard_at"], name="jobs_state_heard")]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_state_display()})"

    @property
    def finished(self) -> bool:
        return self.state in (JobState.DONE, JobState.FAILED)

    @property
    def percent(self) -> int:
        if self.state == JobState.DONE:
            return 100
        return min(100, int(100 * self.done / self.total)) if self.total else 0
