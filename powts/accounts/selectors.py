from powts.accounts.models import CalendarFeed, User


def calendar_feed_user(*, secret: str) -> User | None:
    """The active user whose calendar address carries `secret`, or None (unknown or revoked)."""
    if not secret or len(secret) > 100:
        return None
    feed = CalendarFeed.objects.select_related("user").filter(digest=CalendarFeed.digest_of(secret)).first()
    return feed.user if feed and feed.user.is_active else None


def calendar_feed_of(*, user: User) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(user=user).first()


def api_tokens_of(*, user: User):
    return user.auth_token_set.order_by("-created")
