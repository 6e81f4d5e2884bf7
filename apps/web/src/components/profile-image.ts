/**
 * The default profile image (docs/specification.md §9: ./assets/dummyProfileImage.png), resolved from
 * the app's base so it also loads on nested routes such as /simulation/courses.
 */
export const DUMMY_PROFILE_IMAGE = `${import.meta.env.BASE_URL}assets/dummyProfileImage.png`
