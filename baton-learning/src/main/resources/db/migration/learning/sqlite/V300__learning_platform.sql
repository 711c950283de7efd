-- The learning platform domain (baton-learning; versions V300 and up).
-- Timestamps are ISO-8601 UTC text with exactly six fraction digits (as in the core tables): text order is time order.
-- The catalogue (courses, resources, labs, slots) is shared by the deployment; every other row belongs to one
-- learner (tenant_id, user_id) and every query filters by both.

CREATE TABLE learning_courses (
    id          TEXT    NOT NULL PRIMARY KEY,
    title       TEXT    NOT NULL,
    summary     TEXT    NOT NULL DEFAULT '',
    instructor  TEXT    NOT NULL,
    category    TEXT    NOT NULL,
    level       TEXT    NOT NULL CHECK (level IN ('beginner', 'intermediate', 'advanced')),
    is_open     INTEGER NOT NULL CHECK (is_open IN (0, 1)),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0)
);
CREATE INDEX learning_courses_title ON learning_courses (title);

CREATE TABLE learning_resources (
    id          TEXT    NOT NULL PRIMARY KEY,
    title       TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    course_id   TEXT    REFERENCES learning_courses (id),
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0)
);

-- one enrolment per learner and course: the unique key, not a read-then-write, refuses a second one
CREATE TABLE learning_enrolments (
    id               TEXT    NOT NULL PRIMARY KEY,
    tenant_id        TEXT    NOT NULL,
    user_id          TEXT    NOT NULL,
    course_id        TEXT    NOT NULL REFERENCES learning_courses (id),
    progress_percent INTEGER NOT NULL CHECK (progress_percent BETWEEN 0 AND 100),
    status           TEXT    NOT NULL CHECK (status IN ('active', 'completed')),
    enrolled_at      TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    UNIQUE (tenant_id, user_id, course_id)
);
CREATE INDEX learning_enrolments_learner ON learning_enrolments (tenant_id, user_id, enrolled_at);

CREATE TABLE learning_grades (
    id         TEXT    NOT NULL PRIMARY KEY,
    tenant_id  TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    course_id  TEXT    NOT NULL REFERENCES learning_courses (id),
    item       TEXT    NOT NULL,
    points     INTEGER NOT NULL CHECK (points >= 0),
    max_points INTEGER NOT NULL CHECK (max_points >= 1 AND points <= max_points),
    graded_by  TEXT    NOT NULL,
    graded_at  TEXT    NOT NULL
);
CREATE INDEX learning_grades_learner ON learning_grades (tenant_id, user_id, course_id, graded_at);

CREATE TABLE learning_cart_items (
    id          TEXT    NOT NULL PRIMARY KEY,
    tenant_id   TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    item_type   TEXT    NOT NULL CHECK (item_type IN ('course', 'resource')),
    item_id     TEXT    NOT NULL,
    title       TEXT    NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    added_at    TEXT    NOT NULL,
    UNIQUE (tenant_id, user_id, item_type, item_id)
);

CREATE TABLE learning_labs (
    id        TEXT NOT NULL PRIMARY KEY,
    name      TEXT NOT NULL,
    course_id TEXT REFERENCES learning_courses (id),
    location  TEXT NOT NULL DEFAULT ''
);

-- booked never exceeds capacity: the CHECK is the last line behind the conditional update that takes a seat
CREATE TABLE learning_lab_slots (
    id        TEXT    NOT NULL PRIMARY KEY,
    lab_id    TEXT    NOT NULL REFERENCES learning_labs (id),
    starts_at TEXT    NOT NULL,
    ends_at   TEXT    NOT NULL,
    capacity  INTEGER NOT NULL CHECK (capacity >= 1),
    booked    INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0 AND booked <= capacity),
    UNIQUE (lab_id, starts_at)
);

CREATE TABLE learning_bookings (
    id        TEXT NOT NULL PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    slot_id   TEXT NOT NULL REFERENCES learning_lab_slots (id),
    booked_at TEXT NOT NULL,
    UNIQUE (tenant_id, user_id, slot_id)
);

CREATE TABLE learning_questions (
    id        TEXT NOT NULL PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id   TEXT NOT NULL,
    course_id TEXT NOT NULL REFERENCES learning_courses (id),
    title     TEXT NOT NULL,
    body      TEXT NOT NULL,
    asked_at  TEXT NOT NULL
);
CREATE INDEX learning_questions_course ON learning_questions (tenant_id, course_id, asked_at);
