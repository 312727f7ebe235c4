-- Nothing read this table: the category list is src/shared/contract/categories.ts and every workflow keeps its
-- category as a label pair (decision 096).
DROP TABLE "categories" CASCADE;