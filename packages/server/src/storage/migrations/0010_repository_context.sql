CREATE TABLE "project_contexts" (
	"project_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"name" text NOT NULL,
	"commit" text,
	"files" jsonb NOT NULL,
	"total_bytes" integer NOT NULL,
	"redactions" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_contexts_project_id_revision_pk" PRIMARY KEY("project_id","revision")
);
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "grounded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "project_contexts" ADD CONSTRAINT "project_contexts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;