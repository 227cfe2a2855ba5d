-- The adopter's language (issue 36): the emails about an application or an
-- alert are written in the language of the page it was made from ("en" or
-- "es"; partners may send it too). Rows from before are English, as their
-- emails always were.
ALTER TABLE "adoption_applications" ADD COLUMN "locale" VARCHAR(8) NOT NULL DEFAULT 'en';
ALTER TABLE "alerts" ADD COLUMN "locale" VARCHAR(8) NOT NULL DEFAULT 'en';
